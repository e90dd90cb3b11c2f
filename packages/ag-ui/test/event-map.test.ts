import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent, type LLMProvider, type StreamChunk } from '@lousho/core';
import { emailTool, gate, lookupFlow, lookupTool, pageTool, researcher, scriptedAgent, triageFlow, waitTool } from '@lousho/conformance';
import { AG_UI_EVENT_MAP, AG_UI_PRELUDE_EVENTS, AI_SDK_CHUNK_MAP, AI_SDK_PRELUDE_CHUNKS, AgUiMapper, AiSdkMapper } from '../src/index.js';

// docs/ag-ui.md's mapping table is the mapper's: the table parsed from the doc equals
// AG_UI_EVENT_MAP, and runs of real agents (text, reasoning, streamed and whole tool calls,
// approvals, questions, sub-agents, stops, errors, compaction, flows) send, for each of our events,
// only AG-UI events its row lists; every row that lists something is seen doing it.

const doc = readFileSync(new URL('../../../docs/ag-ui.md', import.meta.url), 'utf8');

/** The mapping table's rows: our event → the names of one column (1: AG-UI, 2: AI SDK). */
function tableOf(text: string, column: 1 | 2): Record<string, string[]> {
  const section = text.split('<!-- ag-ui-map:start -->')[1]!.split('<!-- ag-ui-map:end -->')[0]!;
  const rows = section.split('\n').filter((line) => /^\| `/.test(line));
  return Object.fromEntries(rows.map((line) => {
    const cells = line.split('|').slice(1, 4).map((cell) => cell.trim());
    const cell = cells[column]!;
    return [cells[0]!.replaceAll('`', ''), cell.startsWith('none') ? [] : [...cell.matchAll(/`([A-Za-z_-]+)`/g)].map((m) => m[1]!)];
  }));
}

function chunkModel(turns: StreamChunk[][]): LLMProvider {
  let call = 0;
  return { name: 'chunks', defaultModel: 'chunk-model', async *stream() { yield* turns[call++] ?? []; } };
}

/** What each of our event types became, over every fixture run, in each protocol. */
const seen = { agUi: new Map<string, Set<string>>(), aiSdk: new Map<string, Set<string>>() };

function note(map: Map<string, Set<string>>, ours: string, theirs: { type: string }[]): void {
  const types = map.get(ours) ?? new Set<string>();
  for (const out of theirs) types.add(out.type);
  map.set(ours, types);
}

async function play(run: AsyncIterable<AgentStreamEvent> | Promise<AsyncIterable<AgentStreamEvent>>, onEvent?: (event: AgentStreamEvent) => void): Promise<void> {
  const agUi = new AgUiMapper({ threadId: 't', runId: 'r', transcript: () => [] });
  const aiSdk = new AiSdkMapper({ prefix: 'p', messageId: 'm' });
  try {
    for await (const event of await run) {
      onEvent?.(event);
      note(seen.agUi, event.type, agUi.map(event));
      note(seen.aiSdk, event.type, aiSdk.map(event));
    }
  } catch (error) {
    void error;
  }
}

function expectRowsHold(map: Record<string, readonly string[]>, prelude: readonly string[], observed: Map<string, Set<string>>, exempt: string[] = []): void {
  const allowed = new Set<string>(prelude);
  for (const [ours, theirs] of observed) {
    const row = new Set<string>(map[ours] ?? []);
    expect([...theirs].filter((type) => !row.has(type) && !allowed.has(type)), `${ours} sent what its row does not list`).toEqual([]);
  }
  // Every row that lists something was seen sending it (run.interrupted never comes live).
  for (const [ours, theirs] of Object.entries(map)) {
    if (theirs.length === 0 || exempt.includes(ours)) continue;
    const sent = [...(observed.get(ours) ?? [])].filter((type) => theirs.includes(type));
    expect(sent.length, `${ours}: no run sent what its row lists`).toBeGreaterThan(0);
  }
}

describe('docs/ag-ui.md: the mapping table', () => {
  it.each([
    ['AG-UI', 1, AG_UI_EVENT_MAP],
    ['AI SDK', 2, AI_SDK_CHUNK_MAP],
  ] as const)('its %s column is the code\'s map, row for row', (_name, column, map) => {
    const table = tableOf(doc, column);
    expect(Object.keys(table).sort()).toEqual(Object.keys(map).sort());
    for (const [ours, theirs] of Object.entries(map)) expect(table[ours], ours).toEqual([...theirs]);
  });

  it('is what the mapper does with real runs', async () => {
    // Text, an approval (then approved), a question (then answered).
    const email = emailTool();
    const a = scriptedAgent([['Sending.', { tool: 'send_email', id: 'c1', args: { to: 'a@b.c', subject: 'Hi' } }], ['Sent.', { tool: 'ask_question', id: 'q1', args: { question: 'More?' } }], ['Done.']], { tools: [email.tool], askQuestion: true }).agent;
    await play(a.stream('go', { sessionId: 's1' }));
    await play(a.approvals.resolveStream({ id: a.sessions.get('s1')!.pendingApproval!.approvalId, approved: true }));
    await play(a.approvals.answerStream({ id: a.sessions.get('s1')!.pendingApproval!.approvalId, answer: 'No' }));

    // A message queued while the turn runs (it runs next), and one queued then removed: the reply
    // waits at a gate until both are in.
    const held = Object.assign(gate(), { opened: false });
    const queueing = scriptedAgent([['One.', { wait: held }, 'More.'], ['Two.']]).agent;
    await play(queueing.stream('go', { sessionId: 'q1' }), (event) => {
      if (event.type !== 'text.delta' || held.opened) return;
      held.opened = true;
      void (async () => {
        await queueing.sessions.enqueue!('q1', 'later', { mode: 'queue' });
        const removed = await queueing.sessions.enqueue!('q1', 'never mind', { mode: 'queue' });
        await queueing.sessions.unqueue!('q1', removed.queueId);
        held.open();
      })();
    });
    // Reasoning, streamed arguments, progress, an invalid call.
    const work = defineTool({ name: 'work', description: 'Works', input: z.object({ n: z.number() }), execute: async (_args, ctx) => (ctx.reportProgress?.({ half: true }), 'ok') });
    const b = createAgent({
      provider: chunkModel([
        [{ type: 'reasoning-delta', text: 'Hmm.' }, { type: 'text-delta', text: 'Working.' }, { type: 'tool-call-start', index: 0, id: 'w1', name: 'work' }, { type: 'tool-call-delta', index: 0, argumentsDelta: '{"n":1}' }, { type: 'tool-call', index: 1, id: 'w2', name: 'work', arguments: '{"n":"x"}' }, { type: 'finish', finishReason: 'tool_calls' }],
        [{ type: 'text-delta', text: 'Done.' }, { type: 'finish', finishReason: 'stop' }],
      ]),
      tools: [work],
    });
    await play(b.stream('go'));
    // A sub-agent that pauses for approval, then finishes; a sub-agent that is stopped.
    const child = researcher([['Looking.', { tool: 'lookup', id: 'r1', args: { query: 'x' } }], [{ tool: 'send_email', id: 'r2', args: { to: 'a@b.c', subject: 'N' } }], ['Found.']], [lookupTool(), emailTool().tool]);
    const c = scriptedAgent([['Delegating.', { tool: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'x' } }], ['Done.']], { subagents: { researcher: child.agent } }).agent;
    await play(c.stream('go', { sessionId: 's3' }));
    await play(c.approvals.resolveStream({ id: c.sessions.get('s3')!.pendingApproval!.approvalId, approved: true }));
    const waiting = waitTool();
    const stopped = researcher([['Waiting.', { tool: 'wait', id: 'r1' }]], [waiting.tool]);
    const d = scriptedAgent([[{ tool: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'x' } }]], { subagents: { researcher: stopped.agent } }).agent;
    const controller = new AbortController();
    void waiting.started.promise.then(() => controller.abort());
    await play(d.stream('go', { signal: controller.signal }));
    // A provider error; compaction.
    await play(scriptedAgent([['Partial', new Error('down')]]).agent.stream('go'));
    await play(scriptedAgent([[{ tool: 'read_page', id: 'p1' }], [{ tool: 'read_page', id: 'p2' }], ['Read.']], { tools: [pageTool()], compaction: { contextWindow: 2000 } }).agent.stream('go'));
    // Flows: an approval node (paused, then approved), a failing node.
    const hold = gate();
    hold.open();
    const flow = triageFlow(hold).agent;
    await play(flow.stream('refund', { sessionId: 'f1' }));
    await play(flow.approvals.resolveStream({ id: flow.sessions.get('f1')!.pendingApproval!.approvalId, approved: true }));
    await play(lookupFlow(gate()).agent.stream('fail'));

    expectRowsHold(AG_UI_EVENT_MAP, AG_UI_PRELUDE_EVENTS, seen.agUi);
    expectRowsHold(AI_SDK_CHUNK_MAP, AI_SDK_PRELUDE_CHUNKS, seen.aiSdk);
  }, 30_000);
});
