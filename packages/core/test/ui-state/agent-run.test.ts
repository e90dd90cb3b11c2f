import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent } from '../../src/index.js';
import { encodeSseEvent, encodeSseVersion, parseEventStream } from '@lousho/protocol';
import { mockModel } from '@lousho/testing';
import { reduceAgentEvents, stateFromTranscript, type AgentUIState, type UIMessage } from '@lousho/protocol';
import { collect, fromChunks } from '../../../protocol/test/protocol/arbitraries.js';
import { toolParts } from '../../../protocol/test/ui-state/helpers.js';

function emailAgent() {
  const sendEmail = defineTool({
    name: 'send_email',
    displayName: 'Send email',
    description: 'Send an email',
    input: z.object({ to: z.string(), subject: z.string() }),
    needsApproval: true,
    execute: async ({ to }) => ({ sent: to }),
  });
  const provider = mockModel([
    { reasoning: 'The user wants an email.', text: "I'll email Bob.", toolCalls: [{ name: 'send_email', id: 'call_1', args: { to: 'bob@example.com', subject: 'Report' } }] },
    'Done: the report is on its way.',
  ]);
  return createAgent({ provider, tools: [sendEmail] });
}

/** Sends the events over the wire (SSE, 3-byte chunks) and back. */
async function overTheWire(events: AgentStreamEvent[]): Promise<AgentStreamEvent[]> {
  const bytes = new TextEncoder().encode(encodeSseVersion() + events.map(encodeSseEvent).join(''));
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.subarray(i, i + 3));
  return collect(parseEventStream(fromChunks(chunks)));
}

/** What a transcript cannot carry: streamed argument text and approval decisions. */
function withoutLiveOnlyFields(messages: readonly UIMessage[]): unknown {
  return messages.map((message) => ({
    ...message,
    parts: message.parts
      .filter((part) => part.type !== 'reasoning')
      .map((part) => {
        if (part.type !== 'tool') return part;
        const { argsText: _argsText, approval: _approval, ...rest } = part;
        return rest;
      }),
  }));
}

describe('a real agent run, reduced', () => {
  it('send → text → tool call → approval → continuation, in process and over the wire', async () => {
    const agent = emailAgent();
    const session = agent.session('sess_demo');
    const first = await collect(session.stream('Email Bob the report'));
    const approvalId = (first.find((event) => event.type === 'approval.requested') as Extract<AgentStreamEvent, { type: 'approval.requested' }>).approval.approvalId;
    const second = await collect(await agent.approvals.resolveStream({ id: approvalId, approved: true }));
    const events = [...first, ...second];

    let inProcess: AgentUIState | undefined;
    let paused: AgentUIState | undefined;
    for (const event of events) {
      inProcess = reduceAgentEvents(inProcess, event);
      if (event === first[first.length - 1]) paused = inProcess;
    }
    expect(paused!.status).toBe('awaiting-approval');
    expect(paused!.pendingApproval).toMatchObject({ approvalId, toolName: 'send_email', args: { to: 'bob@example.com', subject: 'Report' } });
    expect(toolParts(paused!)[0]).toMatchObject({ state: 'awaiting-approval', displayName: 'Send email' });

    let wired: AgentUIState | undefined;
    for (const event of await overTheWire(events)) wired = reduceAgentEvents(wired, event);
    expect(wired).toEqual(inProcess);

    const state = inProcess!;
    expect(state.status).toBe('idle');
    expect(state.finishReason).toBe('stop');
    expect(state.lastSeq).toBe(events.length);
    expect(state.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(state.messages[1]!.parts.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool', 'text']);
    expect(toolParts(state)[0]).toMatchObject({
      state: 'done',
      args: { to: 'bob@example.com', subject: 'Report' },
      result: { sent: 'bob@example.com' },
      approval: { approvalId, approved: true },
    });

    // After a reload: the stored transcript gives the same conversation.
    const stored = agent.sessions.get('sess_demo')!;
    const restored = stateFromTranscript(stored.messages, stored.pendingApproval, { lastSeq: stored.lastSeq, displayName: () => 'Send email' });
    expect(withoutLiveOnlyFields(restored.messages)).toEqual(withoutLiveOnlyFields(state.messages));
  });
});
