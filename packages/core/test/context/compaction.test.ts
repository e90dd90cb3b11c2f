import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  compactMessages,
  createAgent,
  createCompactionHook,
  defineTool,
  estimateTokens,
  memoryStore,
  pinMessage,
  reduceAgentEvents,
  registerModel,
  summarizeStrategy,
  twoPhaseStrategy,
  type AgentStreamEvent,
  type AgentUIState,
  type CompactionInfo,
  type Message,
} from '../../src/index.js';
import { mockModel } from '@lousho/testing';

// A model with a small window, so a few large tool results cross the threshold.
registerModel({ id: 'window-4k', provider: 'mock', contextWindow: 4000, inputCostPerMTok: 1, outputCostPerMTok: 2 });

const big = (n: number) => 'r'.repeat(n);
const fetchPage = defineTool({ name: 'fetch_page', description: 'Fetches a page', input: z.object({ n: z.number() }), execute: async ({ n }) => big(3000 + n) });

/** A transcript of `turns` exchanges, each with one tool call and a large result. */
function history(turns: number, resultChars = 3000): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < turns; i++) {
    out.push(Object.freeze({ role: 'user', content: `question ${i}` }));
    out.push(Object.freeze({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'fetch_page', arguments: `{"n":${i}}` }] }));
    out.push(Object.freeze({ role: 'tool', toolCallId: `c${i}`, toolName: 'fetch_page', content: big(resultChars) }));
    out.push(Object.freeze({ role: 'assistant', content: `answer ${i}` }));
  }
  return out;
}

describe('createCompactionHook', () => {
  it('prunes tool results older than the protected tail once the request is over the threshold, in place and persisted', async () => {
    const store = memoryStore();
    const seen: CompactionInfo[] = [];
    const provider = mockModel(['First.', 'Second.'], { model: 'window-4k' });
    const agent = createAgent({ provider, store, hooks: [createCompactionHook({ protectedTokens: 1000, onCompaction: (info) => seen.push(info) })] });
    const session = agent.session('s');
    await session.send(history(3));
    // 3 × 3,000 characters is ~2,250 tokens: under 90% of 4,000, nothing happened.
    expect(seen).toEqual([]);
    expect(provider.calls[0]!.messages.filter((m) => m.role === 'tool').every((m) => String(m.content).length === 3000)).toBe(true);

    const result = await session.send(history(3).slice(0, 8).map((m) => ({ ...m, toolCallId: m.toolCallId && `${m.toolCallId}b`, toolCalls: m.toolCalls?.map((c) => ({ ...c, id: `${c.id}b` })) })));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ step: 1, model: 'window-4k', contextWindow: 4000, strategy: 'prune', summarized: 0 });
    expect(seen[0]!.pruned).toBeGreaterThan(0);
    expect(seen[0]!.tokensAfter).toBeLessThan(seen[0]!.tokensBefore);
    const sent = provider.calls[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(sent[0]).toBe('[pruned: fetch_page result, 3000 chars]');
    // The newest results are protected.
    expect(sent.at(-1)).toBe(big(3000));
    // result.messages and the stored checkpoint keep the pruning.
    expect(result.messages.find((m) => m.toolCallId === 'c0')).toMatchObject({ content: '[pruned: fetch_page result, 3000 chars]', metadata: { pruned: true } });
    const stored = await store.checkpoints.load('s');
    expect(stored!.messages.find((m) => m.toolCallId === 'c0')?.content).toBe('[pruned: fetch_page result, 3000 chars]');
    expect(estimateTokens([{ role: 'system', content: '' }, ...provider.calls[1]!.messages])).toBeLessThanOrEqual(3600);
  });

  it('never prunes a pinned message', async () => {
    const turns = history(6);
    turns[2] = pinMessage(turns[2]!);
    const provider = mockModel(['ok'], { model: 'window-4k' });
    await createAgent({ provider, compaction: { protectedTokens: 500 } }).send(turns);
    const tools = provider.calls[0]!.messages.filter((m) => m.role === 'tool');
    expect(tools[0]!.content).toBe(big(3000));
    expect(tools[0]!.metadata).toMatchObject({ pinned: true });
    expect(tools[1]!.content).toBe('[pruned: fetch_page result, 3000 chars]');
  });

  it('stream() emits compaction.start / compaction.done, and the reducer shows one divider', async () => {
    const provider = mockModel(['Done.'], { model: 'window-4k' });
    const run = createAgent({ provider, compaction: true }).stream(history(6));
    const events: AgentStreamEvent[] = [];
    for await (const event of run) events.push(event);
    const start = events.find((e) => e.type === 'compaction.start');
    const done = events.find((e) => e.type === 'compaction.done');
    expect(start).toMatchObject({ step: 1, contextWindow: 4000, tokens: expect.any(Number) });
    expect(done).toMatchObject({ step: 1, pruned: expect.any(Number), summarized: 0 });
    expect(events.findIndex((e) => e.type === 'compaction.done')).toBeLessThan(events.findIndex((e) => e.type === 'text.delta'));
    let state: AgentUIState | undefined;
    for (const event of events) state = reduceAgentEvents(state, event);
    const reply = state!.messages.at(-1)!;
    expect(reply.role).toBe('assistant');
    expect(reply.parts.map((p) => p.type)).toEqual(['compaction', 'text']);
    expect(state!.status).toBe('idle');
  });

  it('leaves a request under the threshold alone, with no events', async () => {
    const provider = mockModel(['ok'], { model: 'window-4k' });
    const run = createAgent({ provider, compaction: true }).stream(history(1));
    const types: string[] = [];
    for await (const event of run) types.push(event.type);
    expect(types.some((t) => t.startsWith('compaction'))).toBe(false);
  });

  it('prunes inside the protected tail as a last resort, and refuses a request that cannot fit', async () => {
    const provider = mockModel(['ok', 'ok'], { model: 'window-4k' });
    // Two results of ~1,900 tokens each: the newest 40,000 (capped) tokens would protect both.
    const result = await createAgent({ provider, compaction: true }).send(history(2, 7600));
    expect(result.finishReason).toBe('stop');
    const sent = provider.calls[0]!.messages;
    expect(estimateTokens(sent)).toBeLessThan(4000);
    expect(sent.find((m) => m.toolCallId === 'c0')!.content).toBe('[pruned: fetch_page result, 7600 chars]');

    const tooBig = mockModel(['never'], { model: 'window-4k' });
    await expect(createAgent({ provider: tooBig, compaction: true }).send('x'.repeat(20_000))).rejects.toMatchObject({ code: 'LOUSHO_CONTEXT_OVERFLOW' });
    expect(tooBig.calls).toHaveLength(0);
  });

  it('keeps the output tokens asked for (maxTokens) free in the window', async () => {
    const provider = mockModel(['ok'], { model: 'window-4k' });
    await createAgent({ provider, compaction: true, maxTokens: 2000 }).send(history(3));
    expect(estimateTokens(provider.calls[0]!.messages) + 2000).toBeLessThanOrEqual(4000);
  });

  it('needs the context window of the model, and checks its options', async () => {
    await expect(createAgent({ provider: mockModel(['x'], { model: 'unknown-model' }), compaction: true }).send(history(1))).rejects.toMatchObject({
      code: 'LOUSHO_INVALID_CONFIG',
      message: expect.stringContaining("context window of the model 'unknown-model'"),
    });
    const provider = mockModel(['x'], { model: 'unknown-model' });
    await createAgent({ provider, compaction: { contextWindow: 4000 } }).send(history(6));
    expect(String(provider.calls[0]!.messages[2]!.content)).toMatch(/^\[pruned: /);
    expect(() => createCompactionHook({ thresholdPercent: 0 })).toThrow(/thresholdPercent must be a number above 0/);
    expect(() => createCompactionHook({ protectedTokens: -1 })).toThrow(/protectedTokens must be a non-negative integer/);
    expect(() => createCompactionHook({ threshold: 80 } as never)).toThrow(/Compaction has no option `threshold`/);
    expect(() => createAgent({ provider, compaction: { stratgy: 1 } as never })).toThrow(/no option `stratgy`/);
  });
});

describe('summaries', () => {
  it('twoPhaseStrategy prunes first, then summarizes earlier turns with its own model when still over', async () => {
    const summarizer = mockModel(['The user asked 6 questions about pages.'], { model: 'sum-model' });
    const provider = mockModel(['First.', 'Latest.'], { model: 'window-4k' });
    // Long user texts: pruning results is not enough.
    const turns = history(6, 400).map((m) => (m.role === 'user' ? { ...m, content: `${m.content} ${'words '.repeat(400)}` } : m));
    turns[0] = pinMessage(turns[0]!);
    const agent = createAgent({ provider, store: memoryStore(), hooks: [createCompactionHook({ protectedTokens: 800, strategy: twoPhaseStrategy({ model: summarizer }) })] });
    const session = agent.session('s');
    // The history becomes the session's earlier turns; the new question is this run's.
    await session.send(turns.slice(0, 12));
    const result = await session.send([...turns.slice(12), { role: 'user', content: 'and now?' }]);
    expect(summarizer.calls).toHaveLength(1);
    expect(String(summarizer.calls[0]!.messages[0]!.content)).toContain('question 1');
    const sent = provider.calls.at(-1)!.messages;
    expect(sent[0]!.content).toBe('[Summary of the earlier conversation]\nThe user asked 6 questions about pages.');
    expect(sent[0]!.metadata).toMatchObject({ compactionSummary: true });
    // The pinned message stays, right after the summary; this run's own messages are all there.
    expect(sent[1]).toEqual(turns[0]);
    expect(sent.at(-1)!.content).toBe('and now?');
    expect(result.messages[0]!.content).toMatch(/^\[Summary of the earlier conversation\]/);
    // The summary call counts in the run's usage, as delegated work: a model call, not a delegated run.
    expect(result.usage.delegated).toMatchObject({ modelCalls: 1, runs: 0 });
    expect(result.usage.byModel['sum-model']).toMatchObject({ calls: 1 });
    // What a reload shows is rebuilt from the session's log: the conversation as it streamed (the
    // original first question, not the summary), with the compaction divider in the latest reply.
    const state = agent.sessions.get('s')!;
    expect(state.runStartIndex).toBe(0);
    let view: AgentUIState | undefined;
    for (const event of agent.sessions.eventsAfter('s', 0)) view = reduceAgentEvents(view, event);
    const firstText = view!.messages[0]!.parts.find((part) => part.type === 'text');
    expect(firstText && 'text' in firstText && firstText.text).toContain('question 0');
    expect(view!.messages.at(-1)!.parts.map((part) => part.type)).toEqual(['compaction', 'text']);
    expect(estimateTokens(sent)).toBeLessThan(3600);
  });

  it('summarizeStrategy() writes the summary with the run’s own provider and model', async () => {
    // The first run's own messages are never summarized; the second run summarizes them.
    const provider = mockModel(['First answer.', 'Summary text.', 'Answer.'], { model: 'window-4k' });
    const agent = createAgent({ provider, store: memoryStore(), compaction: { strategy: summarizeStrategy(), protectedTokens: 300 } });
    await agent.session('s').send(history(5));
    expect(provider.calls).toHaveLength(1);
    const result = await agent.session('s').send('again');
    expect(provider.calls).toHaveLength(3);
    expect(provider.calls[1]!.model).toBe('window-4k');
    expect(provider.calls[1]!.system).toMatch(/^You condense the earlier part of a conversation/);
    expect(provider.calls[2]!.messages[0]!.content).toBe('[Summary of the earlier conversation]\nSummary text.');
    expect(result.text).toBe('Answer.');
  });

  it('an empty summary is an error, not a silent loss of the conversation', async () => {
    const provider = mockModel(['First answer.', ''], { model: 'window-4k' });
    const agent = createAgent({ provider, store: memoryStore(), compaction: { strategy: summarizeStrategy(), protectedTokens: 300 } });
    await agent.session('s').send(history(5));
    await expect(agent.session('s').send('again')).rejects.toMatchObject({ code: 'LOUSHO_PROVIDER_ERROR', message: expect.stringContaining('answered with no text') });
    // The transcript is as it was.
    expect(agent.sessions.get('s')!.messages.filter((m) => m.role === 'tool').every((m) => m.content === big(3000))).toBe(true);
  });
});

describe('compactMessages', () => {
  it('compacts once, by hand, without changing its input', async () => {
    const input = history(6);
    const output = await compactMessages(input, { model: 'window-4k' });
    expect(output).not.toBe(input);
    expect(input.every((m) => m.role !== 'tool' || m.content === big(3000))).toBe(true);
    expect(output.filter((m) => String(m.content).startsWith('[pruned: fetch_page result'))).not.toHaveLength(0);
    const small = history(1);
    expect(await compactMessages(small, { model: 'window-4k' })).toEqual(small);
    await expect(compactMessages(history(6, 300).map((m) => (m.role === 'user' ? { ...m, content: 'x'.repeat(3000) } : m)), { model: 'window-4k', strategy: summarizeStrategy() })).rejects.toThrow(
      /A summary needs a model/,
    );
    expect(() => twoPhaseStrategy({} as never)).toThrow(/needs \{ model \}/);
  });
});
