import { createAgent, memoryStore, reduceAgentEvents, type AgentStreamEvent, type AgentUIState, type LLMProvider, type UIFlowNodePart, type UIMessage } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { describe, expect, it } from 'vitest';
import { FlowBuilder, FlowExecutor, type FlowNodeAgent } from '../../src/index.js';
import { gate, memoryKind } from './fixtures.js';

/** The same flow as two processes build it: a parallel node whose `web` branch is an agent. */
function researchFlow(web: FlowNodeAgent, notesWait: Promise<void>) {
  return FlowBuilder.create<{ topic: string }>('research')
    .parallel('research', {
      branches: {
        web: { agent: web, input: 'Research {{input.topic}}' },
        notes: {
          run: async () => {
            await notesWait;
            return 'notes taken';
          },
        },
      },
    })
    .step('summary', (vars) => `${String(vars.research.web)} + ${String(vars.research.notes)}`)
    .build();
}

/** A model that streams the start of a reply, then never finishes it: the process is about to die. */
function dyingModel(streamed: () => void): LLMProvider {
  return {
    name: 'dying',
    defaultModel: 'dying-1',
    async *stream() {
      yield { type: 'text-delta', text: 'first attempt, cut off' };
      streamed();
      await new Promise(() => {});
    },
  };
}

const reduce = (events: readonly AgentStreamEvent[]): AgentUIState => events.reduce<AgentUIState>((state, event) => reduceAgentEvents(state, event), reduceAgentEvents(undefined, events[0]!));
const nodeParts = (state: AgentUIState): UIFlowNodePart[] => state.messages.flatMap((m) => m.parts).filter((p): p is UIFlowNodePart => p.type === 'flow-node');
const shown = (messages: readonly UIMessage[] | undefined) => (messages ?? []).map((m) => [m.role, m.parts.map((p) => ('text' in p ? p.text : p.type)).join('')]);

describe('a parallel branch re-run after a crash', () => {
  it("its card shows the rerun's agent messages once, not the dead attempt's as well", async () => {
    const { one, another } = await memoryKind.open();
    const sessionId = 'rerun-card';
    // Process A: the `web` agent streams part of a reply, `notes` finishes (and is checkpointed), then A dies.
    const webStreamed = gate();
    const dying = createAgent({ provider: dyingModel(webStreamed.open), store: memoryStore() });
    const lifeA = FlowExecutor.run(researchFlow(dying, webStreamed.promise), { topic: 'otters' }, { sessionId, store: one });
    lifeA.catch(() => {});
    await webStreamed.promise;
    await (async () => {
      for (let i = 0; i < 500; i++) {
        const checkpoint = await one.checkpoints!.load(sessionId);
        if (checkpoint?.run?.toolCalls.some((r) => r.toolCallId === 'research/notes')) return;
        await new Promise((r) => setTimeout(r, 2));
      }
      throw new Error('notes never checkpointed');
    })();
    await new Promise((r) => setTimeout(r, 20));

    // Process B takes the session over: only `web` runs again, with an agent that answers.
    const answering = createAgent({ provider: mockModel(['second attempt'], { whenExhausted: 'repeat-last' }), store: memoryStore() });
    const storeB = await another();
    const resumed = await FlowExecutor.resume(researchFlow(answering, Promise.resolve()), { sessionId, store: storeB });
    expect(resumed.finishReason).toBe('stop');
    expect(resumed.outputs.summary).toBe('second attempt + notes taken');

    const log = await storeB.sessions!.eventsAfter(sessionId, 0);
    expect(log.filter((e) => e.type === 'run.start' || e.type === 'run.interrupted' || e.type === 'run.done').map((e) => e.type)).toEqual(['run.start', 'run.interrupted', 'run.start', 'run.done']);

    // The dead attempt's card had started showing its agent's reply (the case at hand).
    const cut = log.findIndex((e) => e.type === 'run.interrupted');
    const before = nodeParts(reduce(log.slice(0, cut))).find((p) => p.toolCallId.endsWith(':research/web'));
    expect(shown(before?.run?.messages)).toEqual([
      ['user', 'Research otters'],
      ['assistant', 'first attempt, cut off'],
    ]);

    // After the resume: one card per branch, the web card with the rerun's conversation only.
    const after = reduce(log);
    const cards = nodeParts(after);
    expect(cards.map((p) => [p.toolCallId.slice(p.toolCallId.indexOf(':') + 1), p.state])).toEqual([
      ['research', 'done'],
      ['research/web', 'done'],
      ['research/notes', 'done'],
      ['summary', 'done'],
    ]);
    const web = cards.find((p) => p.toolCallId.endsWith(':research/web'))!;
    expect(web.result).toBe('second attempt');
    expect(shown(web.run?.messages)).toEqual([
      ['user', 'Research otters'],
      ['assistant', 'second attempt'],
    ]);
    expect(web.run?.status).toBe('idle');
    expect(web.run?.messages.map((m) => m.parts.map((p) => ('text' in p ? p.text : '')).join('')).join(' ')).not.toContain('first attempt');
  });
});
