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
/** The status bar's tooltip after `run.interrupted` over HTTP (`interruptedHint()` says it for either mode). */
export const INTERRUPTED_HINT = 'The server stopped during this reply. It shows what was saved; your next message lets it go on from there.';

/** Where the demo's agent runs: what cut a reply differs (the server process, or the page itself). */
export type AgentPlace = 'http' | 'page';

/** What stopped the agent in the middle of a reply, in each mode. */
const CUT_BY: Readonly<Record<AgentPlace, string>> = {
  http: 'The server stopped during this reply',
  page: 'The page was reloaded (or closed) during this reply, and the agent runs in the page, so it stopped too',
};

/** The status bar's tooltip after `run.interrupted`, true to where the agent runs. */
export function interruptedHint(mode: AgentPlace): string {
  return `${CUT_BY[mode]}. It shows what was saved; your next message lets it go on from there.`;
}

/** The note under a reply cut by `run.interrupted`: what happened, and what the user can do. */
export function interruptedNote(mode: AgentPlace): string {
  return `${CUT_BY[mode]}. What it had saved is above; cards it had not finished say so. Send a message (for example "go on") and it picks up from there.`;
}

/** What stopped a tool call of a cut reply, in each mode. */
const CARD_CUT_BY: Readonly<Record<AgentPlace, string>> = { http: 'the server stopped', page: 'the page was reloaded' };

/** What a tool card of a reply cut by `run.interrupted` says: that it did not finish, why, and what to do. */
export function cutCardNote(mode: AgentPlace): string {
  return `Not finished: ${CARD_CUT_BY[mode]} while this ran. Send a message to go on; the call runs again from the last saved step.`;
}

/** How a sub-agent's card names its status. */
export const SUBAGENT_STATUS_LABELS: Readonly<Record<UISubagentStatus, string>> = {
  running: 'Working',
  'awaiting-approval': 'Needs approval',
  done: 'Done',
  error: 'Failed',
  cancelled: 'Stopped',
};
