import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  runGuardrails,
  secretScanGuardrail,
  type AgentStreamEvent,
  type AgentUIState,
  reduceAgentEvents,
  type Guardrail,
  type GuardrailContext,
} from '../../src/index.js';
import { mockModel } from '@lousho/testing';
import { memoryStore, replayAfter } from '../../src/stores/index.js';

const AWS_KEY = 'AKIAZ7QWERTYUIOPASDF';

function shellTool() {
  const ran: string[] = [];
  const tool = defineTool({
    name: 'shell',
    description: 'Run a command',
    input: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      ran.push(command);
      return { exitCode: 0, stdout: `ran ${command}` };
    },
  });
  return { tool, ran };
}

async function collect(run: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const e of run) events.push(e);
  return events;
}

const blockWord = (name: string, word: string): Guardrail => ({
  name,
  check: (ctx) => {
    const text = ctx.stage === 'tool' ? JSON.stringify(ctx.args) : ctx.text;
    return text.includes(word) ? { block: `contains ${word}` } : undefined;
  },
});

describe('input guardrails', () => {
  it('a block ends the run before any model call, with finishReason guardrail and result.guardrail', async () => {
    const model = mockModel(['never said']);
    const agent = createAgent({ provider: model, guardrails: { input: [secretScanGuardrail] } });
    const run = agent.stream(`my key is ${AWS_KEY}`);
    const events = await collect(run);
    const result = await run.result;
    expect(model.calls).toHaveLength(0);
    expect(result.finishReason).toBe('guardrail');
    expect(result.guardrail).toEqual({ name: 'secret-scan', stage: 'input', reason: 'the input contains an AWS access key id.' });
    expect(result.text).toBe('');
    // The blocked input never joins the transcript, so no later turn sends it to a model.
    expect(result.messages).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['run.start', 'run.done']);
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'guardrail', guardrail: result.guardrail });
    expect(JSON.stringify(events)).not.toContain(AWS_KEY);
  });

  it('a session goes on after a blocked input: the next turn runs with a clean transcript', async () => {
    const model = mockModel(['hello']);
    const agent = createAgent({ provider: model, guardrails: { input: [blockWord('no-bananas', 'banana')] } });
    const session = agent.session('s1');
    expect((await session.send('banana please')).finishReason).toBe('guardrail');
    const next = await session.send('hi');
    expect(next.finishReason).toBe('stop');
    expect(model.calls[0]!.messages).toEqual([expect.objectContaining({ role: 'user', content: 'hi' })]);
  });

  it('lets input through when no guardrail blocks, and passes the input text to the check', async () => {
    const seen: GuardrailContext[] = [];
    const agent = createAgent({ provider: mockModel(['ok']), guardrails: { input: [{ name: 'spy', check: (ctx) => void seen.push(ctx) }] } });
    const result = await agent.send([{ role: 'user', content: [{ type: 'text', text: 'part one' }, { type: 'text', text: 'part two' }] }]);
    expect(result.finishReason).toBe('stop');
    expect(seen).toEqual([expect.objectContaining({ stage: 'input', text: 'part one\npart two', runId: result.runId, sessionId: result.sessionId })]);
  });
});

describe('output guardrails', () => {
  it('a block on the final reply ends the run with finishReason guardrail; the reply is withheld from the transcript', async () => {
    const model = mockModel([`Sure, use ${AWS_KEY}`, 'second turn']);
    const agent = createAgent({ provider: model, guardrails: { output: [secretScanGuardrail] } });
    const session = agent.session();
    const run = session.stream('give me a key');
    const events = await collect(run);
    const result = await run.result;
    expect(result.finishReason).toBe('guardrail');
    expect(result.guardrail).toEqual({ name: 'secret-scan', stage: 'output', reason: 'the reply contains an AWS access key id.' });
    expect(result.text).toBe('');
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'guardrail', text: '', guardrail: result.guardrail });
    const reply = result.messages.at(-1)!;
    expect(reply).toMatchObject({ role: 'assistant', metadata: { guardrail: 'secret-scan' } });
    expect(JSON.stringify(result.messages)).not.toContain(AWS_KEY);
    // The next turn's request does not carry the blocked reply.
    await session.send('next');
    expect(JSON.stringify(model.calls[1]!.messages)).not.toContain(AWS_KEY);
  });

  it('the reply is withheld on screen and in the stored log: a reload replays what the live client shows, never the secret', async () => {
    const store = memoryStore();
    const agent = createAgent({ provider: mockModel([{ text: 'let me look', toolCalls: [{ name: 'shell', args: { command: 'ls' } }] }, `Sure, use ${AWS_KEY} here`]), tools: [shellTool().tool], store, guardrails: { output: [secretScanGuardrail] } });
    const session = agent.session();
    const run = session.stream('give me a key');
    const live = (await collect(run)).reduce<AgentUIState | undefined>((state, event) => reduceAgentEvents(state, event), undefined)!;
    await run.result;
    const withheld = "[This reply was withheld by the guardrail 'secret-scan'.]";
    const liveReply = live.messages.at(-1)!;
    expect(liveReply.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)).toEqual(['let me look', withheld]);
    expect(JSON.stringify(live)).not.toContain(AWS_KEY);
    const stored = await store.sessions.eventsAfter(session.id, 0);
    expect(JSON.stringify(stored)).not.toContain(AWS_KEY);
    const replayed = replayAfter(stored, 0).reduce<AgentUIState | undefined>((state, event) => reduceAgentEvents(state, event), undefined)!;
    expect(replayed.messages).toEqual(live.messages);
    expect(replayed.guardrail).toEqual(live.guardrail);
  });

  it("a sub-agent's blocked reply is withheld the same way: live, in the stored log and after a reload; its lead is told", async () => {
    const store = memoryStore();
    const withheld = "[This reply was withheld by the guardrail 'secret-scan'.]";
    const researcher = createAgent({
      description: 'Researches.',
      provider: mockModel([{ text: 'looking', toolCalls: [{ name: 'shell', args: { command: 'env' } }] }, `Found it: ${AWS_KEY} is the key`]),
      tools: [shellTool().tool],
      guardrails: { output: [secretScanGuardrail] },
    });
    const leadModel = mockModel([{ toolCalls: [{ name: 'task', id: 'call_task', args: { subagent: 'researcher', prompt: 'find the key' } }] }, 'The researcher could not share it.']);
    const agent = createAgent({ provider: leadModel, subagents: { researcher }, store });
    const session = agent.session();
    const run = session.stream('find the key');
    const events = await collect(run);
    expect((await run.result).finishReason).toBe('stop');
    // The secret did stream live (the guardrail reads the finished reply)...
    expect(JSON.stringify(events)).toContain(AWS_KEY);
    // ...and once its call is done, the sub-agent's card shows the placeholder instead.
    const live = events.reduce<AgentUIState | undefined>((state, event) => reduceAgentEvents(state, event), undefined)!;
    expect(JSON.stringify(live)).not.toContain(AWS_KEY);
    const card = live.messages.at(-1)!.parts.find((part) => part.type === 'tool')!;
    expect(card.result).toBe(withheld);
    expect(card.subagent!.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual(['looking', withheld]);
    // The lead model gets the placeholder as the sub-agent's answer, never the reply.
    expect(JSON.stringify(leadModel.calls[1]!.messages)).not.toContain(AWS_KEY);
    expect(leadModel.calls[1]!.messages.find((m) => m.role === 'tool')).toMatchObject({ content: withheld });
    // The stored log never replays it, and a reload shows what the live client shows.
    const stored = await store.sessions.eventsAfter(session.id, 0);
    expect(JSON.stringify(stored)).not.toContain(AWS_KEY);
    const replayed = replayAfter(stored, 0).reduce<AgentUIState | undefined>((state, event) => reduceAgentEvents(state, event), undefined)!;
    expect(replayed.messages).toEqual(live.messages);
  });

  it('checks only the final reply, not the text of turns that call tools', async () => {
    const { tool } = shellTool();
    const seen: string[] = [];
    const agent = createAgent({
      provider: mockModel([{ text: 'let me look', toolCalls: [{ name: 'shell', args: { command: 'ls' } }] }, 'done']),
      tools: [tool],
      guardrails: { output: [{ name: 'spy', check: (ctx) => void seen.push((ctx as { text: string }).text) }] },
    });
    expect((await agent.send('go')).finishReason).toBe('stop');
    expect(seen).toEqual(['done']);
  });
});

describe('tool guardrails', () => {
  it('sees the calls the run finished before (previousCalls)', async () => {
    const { tool } = shellTool();
    const seen: unknown[] = [];
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'shell', args: { command: 'a' } }] }, { toolCalls: [{ name: 'shell', args: { command: 'b' } }] }, 'ok']),
      tools: [tool],
      guardrails: { tool: [{ name: 'spy', check: (ctx) => void seen.push(ctx.stage === 'tool' ? ctx.previousCalls : undefined) }] },
    });
    await agent.send('go');
    expect(seen).toEqual([[], [{ toolName: 'shell', args: { command: 'a' }, isError: false }]]);
  });
});

describe('failures and configuration', () => {
  it('a check that throws fails the run with LOUSHO_GUARDRAIL_FAILED (never a silent pass)', async () => {
    const agent = createAgent({ provider: mockModel(['x']), guardrails: { input: [{ name: 'broken', check: () => { throw new Error('boom'); } }] } });
    const run = agent.stream('hi');
    const events = await collect(run);
    await expect(run.result).rejects.toMatchObject({ code: 'LOUSHO_GUARDRAIL_FAILED', message: expect.stringContaining("'broken'") });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'LOUSHO_GUARDRAIL_FAILED' } });
  });

  it('bad guardrail config is refused when the agent is created', () => {
    const provider = mockModel(['x']);
    expect(() => createAgent({ provider, guardrails: { inputs: [] } as never })).toThrow(/unknown stage 'inputs'/);
    expect(() => createAgent({ provider, guardrails: { tool: [{ name: 'x' }] } as never })).toThrow(/'x' has no check function/);
    expect(() => createAgent({ provider, guardrails: { tool: [{ name: 'x', check: () => undefined, onBlock: 'warn' }] } as never })).toThrow(/onBlock/);
    expect(() => createAgent({ provider, guardrails: [] as never })).toThrow(/must be an object/);
  });

  it('runGuardrails runs a list by hand and returns the first block', async () => {
    const calls: string[] = [];
    const spy = (name: string, block?: string): Guardrail => ({ name, check: () => (calls.push(name), block ? { block } : undefined) });
    const block = await runGuardrails([spy('a'), spy('b', 'no'), spy('c', 'never reached')], { stage: 'output', text: 'x' });
    expect(block).toEqual({ name: 'b', stage: 'output', reason: 'no', onBlock: 'end-run' });
    expect(calls).toEqual(['a', 'b']);
    expect(await runGuardrails([secretScanGuardrail], { stage: 'output', text: 'fine' })).toBeUndefined();
    await expect(runGuardrails([{ name: 'odd', check: () => 'yes' as never }], { stage: 'input', text: '' })).rejects.toMatchObject({ code: 'LOUSHO_GUARDRAIL_FAILED' });
    await expect(runGuardrails([], { stage: 'nope' } as never)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
  });
});
