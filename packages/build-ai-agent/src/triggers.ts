// Node only: webhook, Slack and cron triggers, and the Slack channel.
export * from '@lousho/triggers';
