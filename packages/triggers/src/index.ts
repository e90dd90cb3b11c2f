// Node-only entry: adapters that start servers and timers.
export { CronTriggerAdapter, type CronTriggerOptions } from './cron/cron-trigger.js';
export { parseCronExpression, CronExpressionError, type CronSchedule, type CronField } from './cron/cron-expression.js';
export { TRIGGER_ERROR_CODES } from './errors.js';
export type { TriggerAdapter, TriggerAgent, TriggerEvent, TriggerHandler, TriggerLogger, TriggerOptions } from './trigger.js';
export { WebhookTriggerAdapter, type WebhookTriggerOptions } from './webhook/webhook-trigger.js';
