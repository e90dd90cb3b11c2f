import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

/** A tool whose calls finish in the order the test releases them, counting how many run at once. */
function gatedTool() {
  const gates = new Map<string, () => void>();
  const started: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const waiters: (() => void)[] = [];
  const tool = defineTool({
    name: 'job',
    description: 'A job that finishes when released',
    input: z.object({ id: z.string() }),
    execute: async ({ id }, ctx) => {
      started.push(id);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      for (const w of waiters.splice(0)) w();
      try {
        await new Promise<void>((resolve, reject) => {
          gates.set(id, resolve);
          ctx.abortSignal?.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError')), { once: true });
        });
        return `job ${id} done`;
      } finally {
        inFlight--;
      }
    },
  });
  const untilStarted = async (n: number) => {
    while (started.length < n) await new Promise<void>((r) => waiters.push(r));
  };
  return { tool, gates, started, untilStarted, stats: () => ({ maxInFlight, inFlight }) };
}

const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ name: 'job', args: { id: String(i) }, id: `c${i}` }));

describe('parallel tool calls', () => {
  it('runs a batch concurrently by default and appends results (and result.toolCalls) in call order, events in completion order', async () => {
    const g = gatedTool();
    const agent = createAgent({ provider: mockModel([{ toolCalls: calls(3) }, 'all done']), tools: [g.tool] });
    const run = agent.stream('go');
    const events: AgentStreamEvent[] = [];
    const consumed = (async () => {
      for await (const e of run) events.push(e);
    })();
    await g.untilStarted(3);
    expect(g.stats().maxInFlight).toBe(3);
    g.gates.get('2')!();
    await new Promise((r) => setTimeout(r, 0));
    g.gates.get('0')!();
    await new Promise((r) => setTimeout(r, 0));
    g.gates.get('1')!();
    const result = await run.result;
    await consumed;
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['c0', 'c1', 'c2']);
    // result.toolCalls is in the model's call order too, whatever order the calls finished in.
    expect(result.toolCalls.map((c) => c.toolCallId)).toEqual(['c0', 'c1', 'c2']);
    expect(events.filter((e) => e.type === 'tool.done').map((e) => (e as { toolCallId: string }).toolCallId)).toEqual(['c2', 'c0', 'c1']);
    expect(events.filter((e) => e.type === 'tool.call').map((e) => (e as { toolCallId: string }).toolCallId)).toEqual(['c0', 'c1', 'c2']);
  });

  it('with toolConcurrency: 1 runs strictly one at a time and events alternate call/result', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const job = defineTool({
      name: 'job',
      description: 'job',
      input: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        return id;
      },
    });
    const agent = createAgent({ provider: mockModel([{ toolCalls: calls(4) }, 'ok']), tools: [job], toolConcurrency: 1 });
    const events: AgentStreamEvent[] = [];
    const run = agent.stream('go');
    for await (const e of run) events.push(e);
    expect(maxInFlight).toBe(1);
    const order = events.filter((e) => e.type === 'tool.call' || e.type === 'tool.done').map((e) => `${e.type}:${(e as { toolCallId: string }).toolCallId}`);
    expect(order).toEqual(['tool.call:c0', 'tool.done:c0', 'tool.call:c1', 'tool.done:c1', 'tool.call:c2', 'tool.done:c2', 'tool.call:c3', 'tool.done:c3']);
  });

  it('caps concurrency at toolConcurrency', async () => {
    const g = gatedTool();
    const agent = createAgent({ provider: mockModel([{ toolCalls: calls(5) }, 'ok']), tools: [g.tool], toolConcurrency: 2 });
    const pending = agent.send('go');
    await g.untilStarted(2);
    await new Promise((r) => setTimeout(r, 5));
    expect(g.started).toEqual(['0', '1']);
    g.gates.get('1')!();
    await g.untilStarted(3);
    expect(g.started).toEqual(['0', '1', '2']);
    for (const id of ['0', '2']) g.gates.get(id)!();
    await g.untilStarted(5);
    for (const id of ['3', '4']) g.gates.get(id)!();
    const result = await pending;
    expect(g.stats().maxInFlight).toBe(2);
    expect(result.text).toBe('ok');
  });

  it('isolates failures: a throwing call gets its own error and siblings carry on', async () => {
    const mixed = defineTool({
      name: 'mixed',
      description: 'mixed',
      input: z.object({ fail: z.boolean() }),
      execute: async ({ fail }) => {
        if (fail) throw new Error('bad one');
        return 'good';
      },
    });
    const result = await createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'mixed', args: { fail: false } }, { name: 'mixed', args: { fail: true } }, { name: 'mixed', args: { fail: false } }] }, 'fine']),
      tools: [mixed],
    }).send('go');
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => Boolean(m.isError))).toEqual([false, true, false]);
    expect(result.text).toBe('fine');
  });
});

describe('cancellation', () => {
  it('returns at once without calling the provider when the signal is already aborted', async () => {
    const provider = mockModel(['never']);
    const controller = new AbortController();
    controller.abort();
    const result = await createAgent({ provider }).send('hi', { signal: controller.signal });
    expect(result.finishReason).toBe('aborted');
    expect(provider.calls).toHaveLength(0);
  });

  it('resolves (not rejects) with aborted when stopped mid-stream, keeping the partial text', async () => {
    const provider = mockModel([{ text: 'a long long long reply that streams slowly', delayMs: 5 }]);
    const controller = new AbortController();
    const agent = createAgent({ provider });
    const run = agent.stream('write', { signal: controller.signal });
    const events: AgentStreamEvent[] = [];
    for await (const e of run) {
      events.push(e);
      if (e.type === 'text.delta' && events.filter((x) => x.type === 'text.delta').length === 2) controller.abort();
    }
    const result = await run.result;
    expect(result.finishReason).toBe('aborted');
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'aborted' });
    expect(result.text.length).toBeGreaterThan(0);
    expect('a long long long reply that streams slowly'.startsWith(result.text)).toBe(true);
  });

  it('gives running and unreached calls a cancelled result, and running tools see the abort', async () => {
    const g = gatedTool();
    const controller = new AbortController();
    const agent = createAgent({ provider: mockModel([{ toolCalls: calls(4) }, 'never']), tools: [g.tool], toolConcurrency: 2 });
    const pending = agent.send('go', { signal: controller.signal });
    await g.untilStarted(2);
    g.gates.get('0')!();
    // Call 0 finishing frees a slot, so call 2 starts; call 3 is never reached.
    await g.untilStarted(3);
    controller.abort();
    const result = await pending;
    expect(result.finishReason).toBe('aborted');
    const tools = result.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.toolCallId)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(tools[0]!.isError).toBeUndefined();
    for (const m of tools.slice(1)) expect(JSON.parse(m.content as string)).toMatchObject({ kind: 'cancelled' });
    expect(g.stats().inFlight).toBe(0);
    expect(g.started).toEqual(['0', '1', '2']);
  });
});
