export * from '@lousho/core';
// The built-in tools: http (with its SSRF guard), the date and time tools, the todo tools.
export * from '@lousho/tools';
// The framework-neutral agent client (createAgentClient, its transports and types).
export * from '@lousho/client';
// Workspace tools and providers, sandboxes and the command guardrail (all safe in a browser bundle).
export * from '@lousho/workspace';
// Channels (@lousho/node's isomorphic root): defineChannel, mountChannels, the HTTP and webhook channels, webhook auth.
export {
  defineChannel,
  mountChannels,
  httpChannel,
  outcomeResponse,
  webhookChannel,
  unauthorizedResponse,
  webhookInput,
  createWebhookAuthenticator,
  checkWebhookAuth,
  conversationSessionId,
  MemoryReplayStore,
  type ChannelAgent,
  type ChannelsHandler,
  type ChannelsRequestContext,
  type MountChannelsOptions,
  type HttpChannelOptions,
  type WebhookChannel,
  type WebhookChannelOptions,
  type WebhookLogger,
  type WebhookAuth,
  type WebhookAuthOptions,
  type WebhookAuthResult,
  type WebhookRequest,
  type HmacWebhookAuth,
  type BearerWebhookAuth,
  type CustomWebhookAuth,
  type Channel,
  type ChannelDefinition,
  type ChannelInbound,
  type ChannelOutbound,
  type ChannelReceipt,
  type ChannelRequest,
} from '@lousho/node';
export * from '@lousho/integrations';
// Flows: FlowBuilder, FlowExecutor, createFlowAgent and the safe expression language.
export * from '@lousho/flows';
// Evals: defineEval, the scorers and checks, runEval (the `lousho eval` command is the package's bin).
export * from '@lousho/evals';
// The root's createAgent connects `mcpServers` through @lousho/mcp (core's own refuses them).
export { createAgent } from './create-agent.js';
// Specs get the same MCP support, and JSON Schema checks of `output` (both from @lousho/mcp).
export { specToAgent } from './spec-to-agent.js';
export { connectMcp, loadMcpTools, type LoadMcpToolsOptions, type McpConnection, type SkippedMcpTool } from '@lousho/mcp';
