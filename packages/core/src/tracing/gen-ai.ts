/**
 * Span names and attribute keys of the OpenTelemetry GenAI semantic conventions (agent, inference
 * and execute-tool spans), plus Lousho's own `lousho.*` attributes. Kept in one place so the
 * conventions' names are spelled once.
 */
export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  agentDescription: 'gen_ai.agent.description',
  conversationId: 'gen_ai.conversation.id',
  workflowName: 'gen_ai.workflow.name',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestStream: 'gen_ai.request.stream',
  outputType: 'gen_ai.output.type',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  responseTimeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  reasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolDescription: 'gen_ai.tool.description',
  toolType: 'gen_ai.tool.type',
  // Opt-in content (`captureContent`).
  systemInstructions: 'gen_ai.system_instructions',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
} as const;

/** The `lousho.*` span attributes the tracing stage sets besides the OpenTelemetry GenAI conventions' own. */
export const LOUSHO_ATTR = {
  /** True when the span's `gen_ai.usage.*` numbers are estimates (the provider reported none). */
  usageEstimated: 'lousho.usage.estimated',
  costUsd: 'lousho.usage.cost_usd',
  runId: 'lousho.run.id',
  step: 'lousho.step',
  steps: 'lousho.run.steps',
  finishReason: 'lousho.run.finish_reason',
  /** A leg that goes on from a pause or a crash (it links to the leg before it). */
  continuation: 'lousho.run.continuation',
  approvalId: 'lousho.approval.id',
  /** `pending` on the span of a call the run paused on. */
  approvalStatus: 'lousho.approval.status',
  replacedByHook: 'lousho.tool.replaced_by_hook',
  aborted: 'lousho.aborted',
  flowNode: 'lousho.flow.node',
} as const;
