import fc from 'fast-check';
import type { AgentStreamEvent, PendingApprovalInfo, UnsequencedStreamEvent } from '../../src/contracts/events.js';
import type { Message } from '../../src/messages.js';
import type { ToolErrorKind, ToolErrorResult } from '../../src/contracts/tools.js';
import type { RunUsage, StepUsage } from '../../src/contracts/usage.js';

/** Text that stresses the wire: multi-byte UTF-8 (CJK, emoji, combining marks), quotes, CR/LF, U+2028. */
const trickyUnit = fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\r', '\r\n', '\t', 'é', '中', '文', '한', '😀', '👍🏽', '🧑‍💻', 'e\u0301', '\u2028', '\u0000', ':', 'data: x');
export const arbText = fc.oneof(
  fc.string({ unit: trickyUnit, maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
);
export const arbDelta = arbText.filter((text) => text.length > 0);

const arbJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);

const toolNames = ['search', 'get_weather', 'send_email', 'ask_question'] as const;
export const arbToolName = fc.constantFrom(...toolNames);
/** A small pool, so tool events often refer to calls started earlier. */
export const arbToolCallId = fc.constantFrom('call_1', 'call_2', 'call_3', 'call_4');
const arbNodeName = fc.constantFrom('classify', 'draft', 'review');
const arbNodePass = fc.constantFrom('classify', 'draft', 'draft#2', 'call_1');

const arbCounts = fc.record({ inputTokens: fc.nat(5000), outputTokens: fc.nat(5000) });

export const arbRunUsage: fc.Arbitrary<RunUsage> = arbCounts.map(({ inputTokens, outputTokens }) => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
  estimated: false,
  modelCalls: 1,
  byModel: { 'mock-model': { inputTokens, outputTokens, calls: 1 } },
  promptTokens: inputTokens,
  completionTokens: outputTokens,
}));

const arbStepUsage: fc.Arbitrary<StepUsage> = fc.record({
  step: fc.integer({ min: 1, max: 5 }),
  model: fc.constant('mock-model'),
  usage: arbCounts.map(({ inputTokens, outputTokens }) => ({ inputTokens, outputTokens, totalTokens: inputTokens + outputTokens })),
  estimated: fc.boolean(),
});

const errorKinds: ToolErrorKind[] = ['execution', 'validation', 'not-found', 'rejected', 'not-run', 'mcp', 'sandbox', 'denied', 'cancelled', 'output-validation'];
export const arbToolError: fc.Arbitrary<ToolErrorResult> = fc.record({
  error: fc.constantFrom('ToolExecutionError', 'ToolRejectedError'),
  toolName: arbToolName,
  message: arbText,
  kind: fc.constantFrom(...errorKinds),
});

const arbMessage: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), content: arbText }),
  fc.record({
    role: fc.constant('user' as const),
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text' as const), text: arbText }),
        fc.record({ type: fc.constant('image' as const), image: fc.constant('https://example.com/cat.png') }),
        // An uploaded file: the log keeps only its reference.
        fc.record({
          type: fc.constant('attachment' as const),
          fileId: fc.constantFrom('f_0123456789abcdef0123456789abcdef', 'f_fedcba9876543210fedcba9876543210'),
          name: fc.constantFrom('cat.png', 'notes.txt', 'résumé.pdf'),
          mimeType: fc.constantFrom('image/png', 'text/plain', 'application/pdf'),
          size: fc.nat(10_000_000),
        }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);

export const arbApproval: fc.Arbitrary<PendingApprovalInfo> = fc.record({
  approvalId: fc.constantFrom('appr_1', 'appr_2'),
  toolCallId: arbToolCallId,
  toolName: arbToolName,
  displayName: fc.constantFrom('Search', 'Weather'),
  args: arbJson,
  kind: fc.constantFrom('tool' as const, 'question' as const),
});

const arbFinishReason = fc.constantFrom('stop', 'length', 'tool_calls', 'awaiting-approval', 'aborted', 'max-steps', 'guardrail' as const);

/** One arbitrary event of every type the protocol has, before the session numbers it. */
export const arbUnsequencedEvent: fc.Arbitrary<UnsequencedStreamEvent> = fc.oneof(
  fc.record({ type: fc.constant('run.start' as const), model: fc.constant('mock-model'), continuation: fc.boolean() }),
  fc.record({ type: fc.constant('user.message' as const), message: arbMessage }),
  fc.record({ type: fc.constant('step.start' as const), step: fc.integer({ min: 1, max: 5 }) }),
  { arbitrary: fc.record({ type: fc.constant('text.delta' as const), step: fc.integer({ min: 1, max: 5 }), delta: arbDelta }), weight: 4 },
  fc.record({ type: fc.constant('reasoning.delta' as const), step: fc.integer({ min: 1, max: 5 }), delta: arbDelta }),
  fc.record({ type: fc.constant('tool.input.start' as const), step: fc.integer({ min: 1, max: 5 }), toolCallId: arbToolCallId, toolName: arbToolName, displayName: fc.constantFrom('Search', 'Weather') }),
  fc.record({ type: fc.constant('tool.input.delta' as const), toolCallId: arbToolCallId, delta: arbDelta }),
  fc.record({ type: fc.constant('tool.call' as const), step: fc.integer({ min: 1, max: 5 }), toolCallId: arbToolCallId, toolName: arbToolName, displayName: fc.constantFrom('Search', 'Weather'), args: arbJson }),
  fc.record({ type: fc.constant('tool.progress' as const), toolCallId: arbToolCallId, toolName: arbToolName, progress: arbJson }),
  fc.record(
    {
      type: fc.constant('tool.done' as const),
      toolCallId: arbToolCallId,
      toolName: arbToolName,
      result: arbJson,
      artifacts: fc.array(fc.record({ type: fc.constant('chart'), data: arbJson }), { maxLength: 1 }),
    },
    { requiredKeys: ['type', 'toolCallId', 'toolName', 'result'] },
  ),
  fc.record({ type: fc.constant('tool.error' as const), toolCallId: arbToolCallId, toolName: arbToolName, error: arbToolError }),
  fc.record({ type: fc.constant('approval.requested' as const), approval: arbApproval }),
  fc.record(
    { type: fc.constant('approval.resolved' as const), approvalId: fc.constantFrom('appr_1', 'appr_2'), toolCallId: arbToolCallId, approved: fc.boolean(), note: arbText },
    { requiredKeys: ['type', 'approvalId', 'toolCallId', 'approved'] },
  ),
  fc.record({ type: fc.constant('step.done' as const), step: fc.integer({ min: 1, max: 5 }), finishReason: fc.constantFrom('stop', 'tool_calls' as const), usage: arbRunUsage, stepUsage: arbStepUsage }),
  fc.record({ type: fc.constant('run.done' as const), finishReason: arbFinishReason, usage: arbRunUsage, text: arbText, steps: fc.nat(5) }),
  fc.record({ type: fc.constant('error' as const), error: fc.record({ code: fc.constant('LOUSHO_PROVIDER_ERROR'), message: arbText }) }),
  fc.record({ type: fc.constant('compaction.start' as const), step: fc.integer({ min: 1, max: 5 }), tokens: fc.nat(), contextWindow: fc.integer({ min: 1 }) }),
  fc.record({
    type: fc.constant('compaction.done' as const),
    step: fc.integer({ min: 1, max: 5 }),
    tokensBefore: fc.nat(),
    tokensAfter: fc.nat(),
    pruned: fc.nat(20),
    summarized: fc.nat(20),
  }),
  fc.record({
    type: fc.constant('run.interrupted' as const),
    finishReason: fc.constant('interrupted' as const),
    usage: fc.option(arbRunUsage, { nil: null }),
    messages: fc.nat(6),
    parts: fc.nat(6),
  }),
  // Flow events: node passes are named like tool calls (some ids on purpose the same as the tools').
  fc.record({ type: fc.constant('flow.node.start' as const), toolCallId: arbNodePass, toolName: arbNodeName, displayName: fc.constantFrom('Classify', 'Draft'), kind: fc.constantFrom('agent', 'step', 'oneOf', 'approval') }),
  fc.record({ type: fc.constant('flow.node.event' as const), toolCallId: arbNodePass, event: fc.oneof(fc.record({ type: fc.constant('text.delta'), step: fc.constant(1), delta: arbDelta }), fc.record({ type: fc.constant('run.start'), model: fc.constant('m') })) }),
  fc.record({ type: fc.constant('flow.node.done' as const), toolCallId: arbNodePass, toolName: arbNodeName, result: arbJson }),
  fc.record({ type: fc.constant('flow.node.error' as const), toolCallId: arbNodePass, toolName: arbNodeName, error: fc.record({ code: fc.constant('LOUSHO_FLOW_NODE_FAILED'), message: arbText }) }),
  fc.record({ type: fc.constant('flow.branch' as const), toolCallId: arbNodePass, toolName: arbNodeName, branch: fc.option(arbNodeName, { nil: null }) }),
  // Messages sent while a turn runs (the queue).
  fc.record({ type: fc.constant('message.queued' as const), queueId: fc.constantFrom('q_1', 'q_2'), mode: fc.constantFrom('queue' as const, 'steer' as const), message: fc.record({ role: fc.constant('user' as const), content: arbText }) }),
  fc.record({ type: fc.constant('message.unqueued' as const), queueId: fc.constantFrom('q_1', 'q_2'), reason: fc.constantFrom('removed' as const, 'sent' as const, 'steered' as const) }),
) as fc.Arbitrary<UnsequencedStreamEvent>;

/** Numbers events the way a session does: seq 1, 2, 3... */
export function sequence(events: readonly UnsequencedStreamEvent[], runId = 'run_1', sessionId = 'sess_1'): AgentStreamEvent[] {
  return events.map((event, index) => ({ ...event, seq: index + 1, runId, sessionId }) as AgentStreamEvent);
}

/** Events as a reader of the wire or of the log gets them: `run.done` without `text` (the deltas carried the reply). */
export function wireForm(events: readonly AgentStreamEvent[]): AgentStreamEvent[] {
  return events.map((event) => {
    if (event.type !== 'run.done' || !('text' in event)) return event;
    const { text: _text, ...rest } = event;
    return rest;
  });
}

/** A random list of events of any type, numbered. */
export const arbEvents = fc.array(arbUnsequencedEvent, { maxLength: 40 }).map((events) => sequence(events));

/**
 * A realistic run: a user turn, then steps with reasoning, text and tool calls, tools that
 * finish, fail or pause for approval (with its continuation), ending with `run.done` or `error`.
 */
export const arbRunEvents: fc.Arbitrary<AgentStreamEvent[]> = fc
  .record({
    input: arbText,
    steps: fc.array(
      fc.record({
        compacted: fc.boolean(),
        reasoning: fc.array(arbDelta, { maxLength: 2 }),
        text: fc.array(arbDelta, { maxLength: 5 }),
        tools: fc.array(
          fc.record({
            name: arbToolName,
            argsDeltas: fc.array(arbDelta, { maxLength: 3 }),
            outcome: fc.constantFrom('done', 'error', 'approve', 'reject', 'cancelled'),
            result: arbJson,
          }),
          { maxLength: 3 },
        ),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    end: fc.constantFrom('stop', 'aborted', 'error', 'max-steps'),
    turns: fc.integer({ min: 1, max: 2 }),
  })
  .map(({ input, steps, end, turns }) => {
    const out: UnsequencedStreamEvent[] = [];
    let call = 0;
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 1, completionTokens: 1 };
    for (let turn = 0; turn < turns; turn++) {
      out.push({ type: 'run.start', model: 'mock-model' }, { type: 'user.message', message: { role: 'user', content: input } });
      let stepNo = 0;
      for (const step of steps) {
        stepNo++;
        out.push({ type: 'step.start', step: stepNo });
        // The loop compacts before a model call: right after the step starts.
        if (step.compacted) out.push({ type: 'compaction.start', step: stepNo, tokens: 3900, contextWindow: 4000 }, { type: 'compaction.done', step: stepNo, tokensBefore: 3900, tokensAfter: 1200, pruned: 3, summarized: 0 });
        for (const delta of step.reasoning) out.push({ type: 'reasoning.delta', step: stepNo, delta });
        for (const delta of step.text) out.push({ type: 'text.delta', step: stepNo, delta });
        const ids = step.tools.map(() => `call_${turn}_${++call}`);
        step.tools.forEach((tool, i) => {
          out.push({ type: 'tool.input.start', step: stepNo, toolCallId: ids[i]!, toolName: tool.name, displayName: tool.name.toUpperCase() });
          for (const delta of tool.argsDeltas) out.push({ type: 'tool.input.delta', toolCallId: ids[i]!, delta });
        });
        out.push({ type: 'step.done', step: stepNo, finishReason: step.tools.length ? 'tool_calls' : 'stop', usage, stepUsage: { step: stepNo, model: 'm', usage, estimated: false } });
        for (const [i, tool] of step.tools.entries()) {
          const toolCallId = ids[i]!;
          out.push({ type: 'tool.call', step: stepNo, toolCallId, toolName: tool.name, displayName: tool.name.toUpperCase(), args: { i } });
          if (tool.outcome === 'done') out.push({ type: 'tool.progress', toolCallId, toolName: tool.name, progress: { percent: 50 } });
          if (tool.outcome === 'done') out.push({ type: 'tool.done', toolCallId, toolName: tool.name, result: tool.result });
          else if (tool.outcome === 'error' || tool.outcome === 'cancelled') {
            const kind = tool.outcome === 'error' ? 'execution' : 'cancelled';
            out.push({ type: 'tool.error', toolCallId, toolName: tool.name, error: { error: 'E', toolName: tool.name, message: 'failed', kind } });
          } else {
            const approvalId = `appr_${toolCallId}`;
            const approval: PendingApprovalInfo = { approvalId, toolCallId, toolName: tool.name, displayName: tool.name.toUpperCase(), args: { i }, kind: 'tool' };
            out.push({ type: 'approval.requested', approval });
            out.push({ type: 'run.done', finishReason: 'awaiting-approval', usage, text: '', steps: stepNo, approvalId });
            out.push({ type: 'run.start', model: 'mock-model', continuation: true });
            const approved = tool.outcome === 'approve';
            out.push({ type: 'approval.resolved', approvalId, toolCallId, approved });
            if (approved) out.push({ type: 'tool.done', toolCallId, toolName: tool.name, result: tool.result });
            else out.push({ type: 'tool.error', toolCallId, toolName: tool.name, error: { error: 'ToolRejectedError', toolName: tool.name, message: 'rejected', kind: 'rejected' } });
          }
        }
      }
      if (end === 'error') out.push({ type: 'error', error: { code: 'LOUSHO_PROVIDER_ERROR', message: 'boom' } });
      else out.push({ type: 'run.done', finishReason: end as 'stop', usage, text: '', steps: stepNo });
    }
    return sequence(out);
  });

/**
 * A realistic flow run (what `@lousho/flows` streams): nodes start and end (done or failed), agent
 * nodes nest their agent's events, a oneOf says its branch, an approval node may pause the run and
 * be decided in a continuation; the run ends with `run.done` or `error`.
 */
export const arbFlowRunEvents: fc.Arbitrary<AgentStreamEvent[]> = fc
  .record({
    nodes: fc.array(
      fc.record({ kind: fc.constantFrom('agent', 'step', 'oneOf', 'approval'), text: fc.array(arbDelta, { maxLength: 3 }), outcome: fc.constantFrom('done', 'error'), approved: fc.boolean(), result: arbJson }),
      { minLength: 1, maxLength: 5 },
    ),
    end: fc.constantFrom('stop', 'aborted'),
  })
  .map(({ nodes, end }) => {
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 1, completionTokens: 1 };
    const out: UnsequencedStreamEvent[] = [{ type: 'run.start', model: 'flow:f' }, { type: 'user.message', message: { role: 'user', content: 'go' } }];
    let failed = false;
    for (const [i, node] of nodes.entries()) {
      const toolCallId = `n${i}`;
      const toolName = `n${i}`;
      out.push({ type: 'flow.node.start', toolCallId, toolName, displayName: `Node ${i}`, kind: node.kind });
      if (node.kind === 'agent') {
        out.push({ type: 'flow.node.event', toolCallId, event: { type: 'run.start', model: 'm' } }, { type: 'flow.node.event', toolCallId, event: { type: 'step.start', step: 1 } });
        for (const delta of node.text) out.push({ type: 'flow.node.event', toolCallId, event: { type: 'text.delta', step: 1, delta } });
        out.push({ type: 'flow.node.event', toolCallId, event: { type: 'run.done', finishReason: 'stop', usage, text: node.text.join(''), steps: 1 } });
      }
      if (node.kind === 'oneOf') out.push({ type: 'flow.branch', toolCallId, toolName, branch: `n${i + 1}` });
      if (node.kind === 'approval') {
        const approvalId = `appr_${i}`;
        out.push({ type: 'approval.requested', approval: { approvalId, toolCallId, toolName, displayName: `Node ${i}`, args: null, kind: 'tool' } });
        out.push({ type: 'run.done', finishReason: 'awaiting-approval', usage, text: '', steps: i, approvalId });
        out.push({ type: 'run.start', model: 'flow:f', continuation: true }, { type: 'approval.resolved', approvalId, toolCallId, approved: node.approved });
        out.push({ type: 'flow.node.done', toolCallId, toolName, result: { approved: node.approved } });
        continue;
      }
      if (node.outcome === 'error') {
        out.push({ type: 'flow.node.error', toolCallId, toolName, error: { code: 'LOUSHO_FLOW_NODE_FAILED', message: 'boom' } }, { type: 'error', error: { code: 'LOUSHO_FLOW_NODE_FAILED', message: 'boom' } });
        failed = true;
        break;
      }
      out.push({ type: 'flow.node.done', toolCallId, toolName, result: node.result });
    }
    if (!failed) out.push({ type: 'run.done', finishReason: end as 'stop', usage, text: '', steps: nodes.length });
    return sequence(out);
  });

/** How a byte stream is cut into chunks: every byte alone, or random sizes (often tiny). */
export const arbChunking = fc.oneof(
  fc.constant([1]),
  fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 8 }),
  fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }),
);

export function chunkBytes(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let offset = 0;
  let i = 0;
  while (offset < bytes.length) {
    const size = sizes[i++ % sizes.length]!;
    out.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return out;
}

export async function* fromChunks(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
