// Node-only entry: adapters that start servers and timers.
export { CronTriggerAdapter, type CronTriggerOptions } from './cron/cron-trigger.js';
export { parseCronExpression, CronExpressionError, type CronSchedule, type CronField } from './cron/cron-expression.js';
export { TRIGGER_ERROR_CODES } from './errors.js';
export type { TriggerAdapter, TriggerAgent, TriggerEvent, TriggerHandler, TriggerLogger, TriggerOptions } from './trigger.js';
export { WebhookTriggerAdapter, type WebhookTriggerOptions } from './webhook/webhook-trigger.js';
export { SlackTriggerAdapter, type SlackTriggerOptions, type SlackRequest, type SlackResponse } from './slack/slack-trigger.js';
export { verifySlackSignature, type VerifySlackSignatureOptions } from './slack/verify.js';
export { slackChannel, type SlackChannelOptions } from './slack/slack-channel.js';
export { SlackApiError } from './slack/web-api.js';
export type { SlackHeaders } from './slack/headers.js';
export { defaultHandler } from './trigger.js';
export { DEFAULT_MAX_CONCURRENT_RUNS, DEFAULT_RETRY_AFTER_SECONDS, type ConcurrencyOptions } from '@lousho/node';
