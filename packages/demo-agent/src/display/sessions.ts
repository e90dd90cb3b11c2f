/** How the demos' Sessions panel names where a session came from. */
export const SESSION_ORIGIN_LABELS: Readonly<Record<'chat' | 'webhook' | 'cron' | 'slack', string>> = {
  chat: 'Chat',
  webhook: 'Webhook',
  cron: 'Schedule',
  slack: 'Slack',
};

/** And what it is doing (the server's session status). */
export const SESSION_STATE_LABELS: Readonly<Record<'idle' | 'running' | 'awaiting-approval' | 'interrupted', string>> = {
  idle: 'Idle',
  running: 'Running',
  'awaiting-approval': 'Waiting for approval',
  interrupted: 'Interrupted',
};
