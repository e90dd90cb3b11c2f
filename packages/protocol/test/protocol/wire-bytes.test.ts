import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import { createSseEventEncoder } from '../../src/protocol/index.js';

/**
 * The events behind docs/protocol.md's "Bytes per event type" table: a `runId` of 24 characters,
 * a `sessionId` of 37 and 4-digit ids. The test checks the documented counts against what the
 * encoder writes today, so the table cannot drift from the code.
 */
const runId = 'run_feb9d9f8e18c4b659954';
const sessionId = 'sess_0f3c5d2a9b8e4f1c8a7d6e5b4c3a2f10';
const seq = 1234;
const usage = { inputTokens: 42, outputTokens: 17, totalTokens: 59, estimated: false, modelCalls: 1, byModel: { 'mock-model': { inputTokens: 42, outputTokens: 17, calls: 1 } }, promptTokens: 42, completionTokens: 17 };
const args = { to: 'bob@example.com', subject: 'Report' };
const approval = { approvalId: 'appr_mx27baoi9e6zfp1', toolCallId: 'call_1', toolName: 'send_email', displayName: 'Send email', args, kind: 'tool' };
const longReply = 'Sent! '.repeat(200);

/** Each row of the table: its label in the doc, the event, and whether it starts a run of its own. */
const ROWS: { label: string; event: Record<string, unknown>; newRun?: boolean }[] = [
  { label: '`run.start` (a new run)', event: { type: 'run.start', model: 'mock-model' }, newRun: true },
  { label: '`run.start` (`continuation: true`, same run)', event: { type: 'run.start', model: 'mock-model', continuation: true } },
  { label: '`user.message`', event: { type: 'user.message', message: { role: 'user', content: 'Email Bob the report' } } },
  { label: '`step.start`', event: { type: 'step.start', step: 2 } },
  { label: '`text.delta` (`"Hel "`)', event: { type: 'text.delta', step: 2, delta: 'Hel ' } },
  { label: '`reasoning.delta` (4 characters)', event: { type: 'reasoning.delta', step: 2, delta: 'Hmm ' } },
  { label: '`tool.input.start`', event: { type: 'tool.input.start', step: 2, toolCallId: 'call_1', toolName: 'send_email', displayName: 'Send email' } },
  { label: '`tool.input.delta` (4 characters)', event: { type: 'tool.input.delta', toolCallId: 'call_1', delta: '{"to' } },
  {
    label: '`step.done`',
    event: { type: 'step.done', step: 2, finishReason: 'tool_calls', usage, stepUsage: { step: 2, model: 'mock-model', usage: { inputTokens: 42, outputTokens: 17, totalTokens: 59 }, estimated: false } },
  },
  { label: '`tool.call`', event: { type: 'tool.call', step: 2, toolCallId: 'call_1', toolName: 'send_email', displayName: 'Send email', args } },
  { label: '`tool.progress`', event: { type: 'tool.progress', toolCallId: 'call_1', toolName: 'send_email', progress: { sent: 1, of: 2 } } },
  { label: '`approval.requested`', event: { type: 'approval.requested', approval } },
  { label: '`approval.resolved`', event: { type: 'approval.resolved', approvalId: approval.approvalId, toolCallId: 'call_1', approved: true } },
  { label: '`tool.done`', event: { type: 'tool.done', toolCallId: 'call_1', toolName: 'send_email', result: { sent: 'bob@example.com' } } },
  {
    label: '`tool.error`',
    event: { type: 'tool.error', toolCallId: 'call_1', toolName: 'send_email', error: { code: 'LOUSHO_TOOL_FAILED', message: 'The mail server refused the message.' } },
  },
  {
    label: '`run.done` (paused, 15-character reply)',
    event: { type: 'run.done', finishReason: 'awaiting-approval', usage, text: "I'll email Bob.", steps: 1, approvalId: approval.approvalId },
  },
  { label: '`run.done` (1,200-character reply)', event: { type: 'run.done', finishReason: 'stop', usage, text: longReply, steps: 2 } },
  { label: '`error`', event: { type: 'error', error: { code: 'LOUSHO_MODEL_ERROR', message: 'The model call failed.' } } },
  { label: '`run.interrupted`', event: { type: 'run.interrupted', finishReason: 'interrupted', usage, messages: 3, parts: 2 } },
];

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const withContext = (event: Record<string, unknown>): AgentStreamEvent => ({ ...event, seq, runId, sessionId }) as unknown as AgentStreamEvent;

/** The frame v1 wrote: every field in the JSON (`seq`, both ids, `step`, `run.done`'s `text`). */
function v1Frame(event: AgentStreamEvent): string {
  return `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The frame v2 writes for `event` after an event of the same run, session and step 2 (or of
 * another run, for a new run) and, for a tool event other than the one that starts a call, after
 * an event of the same call.
 */
function v2InStream(event: AgentStreamEvent, newRun: boolean): string {
  const encode = createSseEventEncoder();
  const context = { seq: seq - 1, runId: newRun ? 'run_0123456789abcdef0123' : runId, sessionId };
  encode({ type: 'text.delta', step: event.type === 'step.start' ? 1 : 2, delta: '', ...context } as AgentStreamEvent);
  if (event.type.startsWith('tool.') && event.type !== 'tool.input.start') encode({ type: 'tool.input.delta', toolCallId: 'call_1', delta: '', ...context } as AgentStreamEvent);
  return encode(event);
}

const measured = ROWS.map(({ label, event, newRun = false }) => {
  const full = withContext(event);
  return { label, v1: bytes(v1Frame(full)), inStream: bytes(v2InStream(full, newRun)), first: bytes(createSseEventEncoder()(full)) };
});

/** The table's rows as documented: label → [v1, v2 in a stream, v2 first event]. */
function documentedTable(): Map<string, number[]> {
  const doc = readFileSync(fileURLToPath(new URL('../../../../docs/protocol.md', import.meta.url)), 'utf8');
  const section = doc.slice(doc.indexOf('### Bytes per event type'), doc.indexOf('### Merged deltas'));
  const rows = new Map<string, number[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length !== 6 || !/^\d/.test(cells[2]!)) continue;
    rows.set(cells[1]!, cells.slice(2, 5).map((cell) => Number(cell.replace(/,/g, ''))));
  }
  return rows;
}

describe('docs/protocol.md, "Bytes per event type"', () => {
  it('lists every event type', () => {
    const documented = [...documentedTable().keys()].map((label) => /`([a-z.]+)`/.exec(label)![1]);
    const types = new Set(ROWS.map((row) => row.event.type));
    expect(new Set(documented)).toEqual(types);
    expect(documentedTable().size).toBe(ROWS.length);
  });

  it('gives the counts the encoder writes today (v1: every field in every frame)', () => {
    const table = documentedTable();
    for (const row of measured) expect({ label: row.label, counts: table.get(row.label) }).toEqual({ label: row.label, counts: [row.v1, row.inStream, row.first] });
  });

  it('a text delta costs 45 bytes of frame plus its text and its id digits, 53 for "Hel " with a 4-digit id', () => {
    const delta = measured.find((row) => row.label.startsWith('`text.delta`'))!;
    expect(delta.inStream).toBe(45 + 'Hel '.length + String(seq).length);
    expect(delta.inStream).toBe(53);
  });
});
