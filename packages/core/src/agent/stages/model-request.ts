import type { GenerateOptions } from '@lousho/protocol';
import { isCompactionHook } from '../../compaction/hook.js';
import type { UsageTracker } from '../../usage/tracker.js';
import type { LoopDeps } from '../loop-deps.js';
import type { RunSnapshot } from '@lousho/protocol';
import { checkPriced } from './budget.js';
import { compactionStage } from './compaction.js';
import { resolveAttachments } from './attachments.js';
import { systemPromptStage } from './system-prompt.js';

/**
 * Everything before a model call, in the documented order: the run's config was resolved when it
 * started; then recall memory / list skills (the system prompt), the `preGenerate` hooks, and
 * compaction. Returns the request to send.
 */
export async function prepareModelCall(
  deps: LoopDeps,
  snapshot: RunSnapshot,
  step: number,
  usage: UsageTracker,
  responseFormat: GenerateOptions['responseFormat'],
): Promise<GenerateOptions> {
  const system = await systemPromptStage(deps, snapshot);
  const request: GenerateOptions = {
    messages: snapshot.messages,
    ...(snapshot.model ? { model: snapshot.model } : {}),
    ...(system !== undefined ? { system } : {}),
    ...(deps.toolSpecs.length > 0 ? { tools: deps.toolSpecs } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    ...(deps.temperature !== undefined ? { temperature: deps.temperature } : {}),
    ...(deps.maxTokens !== undefined ? { maxTokens: deps.maxTokens } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  for (const hook of deps.hooks) {
    if (hook.preGenerate && !isCompactionHook(hook)) await hook.preGenerate({ runId: snapshot.runId, sessionId: snapshot.sessionId, step, request, ...(deps.subagent ? { subagent: deps.subagent } : {}) });
  }
  await compactionStage(deps, snapshot, request, step, usage);
  // Last: the hooks and compaction saw references; only the request sent carries the bytes.
  request.messages = await resolveAttachments(request.messages, deps.files);
  // A cost budget that cannot be watched is said before any money is spent.
  checkPriced(deps.limits, request.model ?? snapshot.model);
  return request;
}
