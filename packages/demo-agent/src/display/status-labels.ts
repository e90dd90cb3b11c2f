import type { AgentUIStatus, UISubagentStatus } from '@lousho/build-ai-agent';

/** How the demos' status bar names a run's status. */
export const RUN_STATUS_LABELS: Readonly<Record<AgentUIStatus, string>> = {
  idle: 'Ready',
  submitted: 'Thinking…',
  streaming: 'Replying…',
  reconnecting: 'Reconnecting…',
  'awaiting-approval': 'Waiting for you',
  error: 'Failed',
  aborted: 'Stopped',
};

/** The status bar after `run.interrupted`: the reply shows what was saved, and goes on with the next message. */
export const INTERRUPTED_LABEL = 'Interrupted';
/** The status bar's tooltip after `run.interrupted`. */
export const INTERRUPTED_HINT = 'The server stopped during this reply. It shows what was saved; your next message lets it go on from there.';

/** How a sub-agent's card names its status. */
export const SUBAGENT_STATUS_LABELS: Readonly<Record<UISubagentStatus, string>> = {
  running: 'Working',
  'awaiting-approval': 'Needs approval',
  done: 'Done',
  error: 'Failed',
  cancelled: 'Stopped',
};
