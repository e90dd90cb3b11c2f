export { defineChannel } from './define-channel.js';
export { mountChannels, type ChannelAgent, type ChannelsHandler, type ChannelsRequestContext, type MountChannelsOptions } from './mount-channels.js';
export { httpChannel, outcomeResponse, type HttpChannelOptions } from './http-channel.js';
export { webhookChannel, unauthorizedResponse, webhookInput, type WebhookChannel, type WebhookChannelOptions, type WebhookLogger } from './webhook-channel.js';
export {
  createWebhookAuthenticator,
  checkWebhookAuth,
  type WebhookAuth,
  type WebhookAuthOptions,
  type WebhookAuthResult,
  type WebhookRequest,
  type HmacWebhookAuth,
  type BearerWebhookAuth,
  type CustomWebhookAuth,
} from './webhook-auth.js';
export { conversationSessionId } from './session-ids.js';
export type { Channel, ChannelDefinition, ChannelInbound, ChannelOutbound, ChannelReceipt, ChannelRequest } from './types.js';
export { MemoryReplayStore } from './replay-store.js';
export { RunSlots, DEFAULT_MAX_CONCURRENT_RUNS, DEFAULT_RETRY_AFTER_SECONDS, type ConcurrencyOptions, type BusyAnswer } from './run-slots.js';
