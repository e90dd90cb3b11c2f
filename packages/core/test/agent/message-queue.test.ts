import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, reduceAgentEvents, type Agent, type AgentStreamEvent, type AgentUIState } from '../../src/index.js';
import { memoryStore } from '../../src/stores/index.js';
import { mockModel } from '@lousho/testing';

/** A tool that waits until the test lets it go: the turn is mid-run (between two steps) meanwhile. */
function gate() {
  let open!: () => void;
  let entered!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const started = new Promise<void>((resolve) => (entered = resolve));
  const tool = defineTool({
    name: 'slow',
    description: 'Takes a while',
    input: z.object({}),
    execute: async () => {
      entered();
      await opened;
      return 'done';
    },
  });
  return { tool, open, started };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

const log = (agent: Agent, id: string): AgentStreamEvent[] => agent.sessions.eventsAfter(id, 0);
const uiState = (agent: Agent, id: string): AgentUIState => log(agent, id).reduce<AgentUIState>((state, event) => reduceAgentEvents(state, event), undefined as unknown as AgentUIState);
const drain = async (run: AsyncIterable<unknown>) => {
  for await (const _ of run);
};

describe('messages sent while a turn runs', () => {
  it('steer: the model sees the message in its next call, at the step boundary, and the UI shows when it was taken in', async () => {
    const { tool, open, started } = gate();
    const provider = mockModel([{ toolCalls: [{ name: 'slow', args: {} }] }, 'Rome too, then.']);
    const agent = createAgent({ provider, tools: [tool] });
    await agent.sessions.create('s1');
    const run = agent.stream('Check Paris', { sessionId: 's1' });
    const reading = drain(run);
    await started;
    const item = await agent.sessions.enqueue!('s1', 'Also check Rome', { mode: 'steer' });
    expect(item).toMatchObject({ mode: 'steer', message: { role: 'user', content: 'Also check Rome' } });
    expect(uiState(agent, 's1').queued).toEqual([{ id: item.queueId, mode: 'steer', parts: [{ type: 'text', text: 'Also check Rome' }] }]);
    open();
    await reading;
    expect((await run.result).text).toBe('Rome too, then.');
    // The second model call: the tool's result, then the steering message.
    expect(provider.calls[1]!.messages.map((m) => [m.role, typeof m.content === 'string' ? m.content : ''])).toEqual([
      ['user', 'Check Paris'],
      ['assistant', ''],
      ['tool', expect.any(String)],
      ['user', 'Also check Rome'],
    ]);
    const types = log(agent, 's1').map((e) => e.type);
    const steered = types.indexOf('message.unqueued');
    expect(types.slice(steered, steered + 3)).toEqual(['message.unqueued', 'user.message', 'step.start']);
    const state = uiState(agent, 's1');
    expect(state.queued).toEqual([]);
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(state.status).toBe('idle');
    // Only one turn ran: the steering message was the running turn's.
    expect(provider.calls).toHaveLength(2);
  });

  it('queue: the message runs as the next turn once the running one ends, with nobody asking', async () => {
    const { tool, open, started } = gate();
    const provider = mockModel([{ toolCalls: [{ name: 'slow', args: {} }] }, 'Paris is sunny.', 'Rome is rainy.']);
    const agent = createAgent({ provider, tools: [tool] });
    await agent.sessions.create('s2');
    const run = agent.stream('Check Paris', { sessionId: 's2' });
    const reading = drain(run);
    await started;
    const item = await agent.sessions.enqueue!('s2', 'And Rome?');
    expect(item.mode).toBe('queue');
    expect(agent.sessions.queued!('s2').map((q) => q.queueId)).toEqual([item.queueId]);
    open();
    await reading;
    await until(() => provider.calls.length === 3 && agent.sessions.get('s2')?.status === 'idle');
    expect(provider.calls[2]!.messages.at(-1)).toEqual({ role: 'user', content: 'And Rome?' });
    expect(agent.sessions.queued!('s2')).toEqual([]);
    const state = uiState(agent, 's2');
    expect(state.queued).toEqual([]);
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(state.status).toBe('idle');
    // The first turn's end says the next one comes (status `submitted`), before its `run.start`.
    const events = log(agent, 's2');
    const firstEnd = events.findIndex((e) => e.type === 'run.done');
    const upToEnd = events.slice(0, firstEnd + 1).reduce<AgentUIState>((s, e) => reduceAgentEvents(s, e), undefined as unknown as AgentUIState);
    expect(upToEnd).toMatchObject({ status: 'submitted', finishReason: 'stop' });
    expect(events[firstEnd + 1]).toMatchObject({ type: 'message.unqueued', queueId: item.queueId, reason: 'sent' });
  });

  it('a steering message a stopped turn never took in keeps waiting, and runs as a turn once the next turn ends', async () => {
    const { tool, open, started } = gate();
    const provider = mockModel([{ toolCalls: [{ name: 'slow', args: {} }] }, 'First.', 'Second.']);
    const agent = createAgent({ provider, tools: [tool] });
    await agent.sessions.create('s3');
    const run = agent.stream('Go', { sessionId: 's3' });
    const reading = drain(run);
    await started;
    // The turn is stopped before its next step: the steering message is never taken in.
    const controller = agent.sessions.stop('s3');
    expect(controller).toBe(true);
    await agent.sessions.enqueue!('s3', 'Late note', { mode: 'steer' });
    open();
    await reading;
    expect((await run.result).finishReason).toBe('aborted');
    // A stopped turn leaves the queue alone: the person decides.
    expect(agent.sessions.queued!('s3').map((q) => q.message.content)).toEqual(['Late note']);
    expect(uiState(agent, 's3').status).toBe('aborted');
    // The next turn takes it once it ends.
    await agent.send('Again', { sessionId: 's3' });
    await until(() => agent.sessions.get('s3')?.status === 'idle' && agent.sessions.queued!('s3').length === 0);
    expect(provider.calls.at(-1)!.messages.at(-1)).toEqual({ role: 'user', content: 'Late note' });
  });

  it('removes a queued message; an unknown one or another principal\'s session is refused with a stable code and nothing changes', async () => {
    const { tool, open, started } = gate();
    const provider = mockModel([{ toolCalls: [{ name: 'slow', args: {} }] }, 'Done.']);
    const agent = createAgent({ provider, tools: [tool] });
    await agent.sessions.create('s4', { owner: 'alice' });
    const run = agent.stream('Go', { sessionId: 's4' });
    const reading = drain(run);
    await started;
    const item = await agent.sessions.enqueue!('s4', 'Later', { owner: 'alice' });
    const before = log(agent, 's4').length;
    await expect(agent.sessions.unqueue!('s4', 'q_nope', { owner: 'alice' })).rejects.toMatchObject({ code: 'LOUSHO_QUEUED_MESSAGE_NOT_FOUND' });
    await expect(agent.sessions.unqueue!('s4', item.queueId, { owner: 'mallory' })).rejects.toMatchObject({ code: 'LOUSHO_SESSION_NOT_FOUND' });
    await expect(agent.sessions.enqueue!('s4', 'sneaky', { owner: 'mallory' })).rejects.toMatchObject({ code: 'LOUSHO_SESSION_NOT_FOUND' });
    await expect(agent.sessions.enqueue!('s4', '  ', { owner: 'alice' })).rejects.toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
    await expect(agent.sessions.enqueue!('s4', 'x', { owner: 'alice', mode: 'later' as never })).rejects.toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
    await expect(agent.sessions.enqueue!('nope', 'x')).rejects.toMatchObject({ code: 'LOUSHO_SESSION_NOT_FOUND' });
    // `turn`: a turn now or nothing, the way before queues.
    await expect(agent.sessions.enqueue!('s4', 'now', { owner: 'alice', mode: 'turn' })).rejects.toMatchObject({ code: 'LOUSHO_SESSION_BUSY' });
    expect(log(agent, 's4')).toHaveLength(before);
    await agent.sessions.unqueue!('s4', item.queueId, { owner: 'alice' });
    await expect(agent.sessions.unqueue!('s4', item.queueId, { owner: 'alice' })).rejects.toMatchObject({ code: 'LOUSHO_QUEUED_MESSAGE_NOT_FOUND' });
    expect(uiState(agent, 's4').queued).toEqual([]);
    open();
    await reading;
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Removed: no second turn.
    expect(provider.calls).toHaveLength(2);
    expect(uiState(agent, 's4').status).toBe('idle');
  });

  it('the queue is in the store: another process (or one after a restart) reads it back and runs it', async () => {
    const store = memoryStore();
    const { tool, open, started } = gate();
    const first = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'slow', args: {} }] }, 'Done.', 'Queued turn done.']), tools: [tool], store });
    await first.sessions.create('s5');
    const run = first.stream('Go', { sessionId: 's5' });
    const reading = drain(run);
    await started;
    const item = await first.sessions.enqueue!('s5', 'Queued before the restart');
    await first.sessions.enqueue!('s5', 'Removed before the restart').then((removed) => first.sessions.unqueue!('s5', removed.queueId));
    // The process dies with the turn running: another one takes the session over.
    const provider = mockModel(['Resumed.', 'Queued turn done.']);
    const second = createAgent({ provider, tools: [tool], store });
    await second.sessions.load('s5');
    expect(second.sessions.queued!('s5').map((q) => q.queueId)).toEqual([item.queueId]);
    const state = second.sessions.eventsAfter('s5', 0).reduce<AgentUIState>((s, e) => reduceAgentEvents(s, e), undefined as unknown as AgentUIState);
    expect(state.queued?.map((q) => q.id)).toEqual([item.queueId]);
    open();
    await reading;
    // (The first process's run finished after all: its end ran the queued turn there.)
    await until(() => first.sessions.get('s5')?.status === 'idle' && first.sessions.queued!('s5').length === 0);
  });
});
