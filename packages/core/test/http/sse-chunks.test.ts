import { describe, expect, it } from 'vitest';
import { createAgentHandler } from '../../src/http/index.js';
import { sseChunksOf } from '../../src/http/sse-response.js';
import { createEventStreamDecoder, encodeSseVersion } from '@lousho/protocol';
import type { AgentStreamEvent } from '../../src/index.js';
import { agentWith, coveredSeqs, json, lastStepText } from './helpers.js';

function turn(reply: string): Promise<Response> {
  const { agent } = agentWith([reply]);
  return Promise.resolve(createAgentHandler(agent)(new Request('http://agent.test/sessions/s1/messages', json({ input: 'go' }))));
}

/** The events in `chunks`, as a client decodes them. */
function decode(chunks: (string | Uint8Array)[]): { events: AgentStreamEvent[]; raw: string } {
  const events: AgentStreamEvent[] = [];
  const decoder = createEventStreamDecoder((event) => events.push(event));
  const text = new TextDecoder();
  let raw = '';
  for (const chunk of chunks) {
    const piece = typeof chunk === 'string' ? chunk : text.decode(chunk, { stream: true });
    raw += piece;
    decoder.push(piece);
  }
  decoder.end();
  return { events, raw };
}

describe('sseChunksOf: an event stream read without its web stream (what toNodeHandler writes)', () => {
  it('gives the version frame, then the events up to run.done, then undefined; the same events as the body', async () => {
    const reply = 'One reply, in more than one delta.';
    const response = await turn(reply);
    const chunks = sseChunksOf(response)!;
    expect(chunks).toBeDefined();
    const got: string[] = [];
    for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) got.push(chunk);
    expect(await chunks.next()).toBeUndefined();
    const { events, raw } = decode(got);
    expect(raw.startsWith(encodeSseVersion())).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run.done' });
    expect(lastStepText(events)).toBe(reply);

    // The same turn read through its web stream.
    const body = await (await turn(reply)).arrayBuffer();
    const viaBody = decode([new Uint8Array(body)]);
    expect(coveredSeqs(viaBody.events)).toEqual(coveredSeqs(events));
    expect(lastStepText(viaBody.events)).toBe(reply);
  });

  it('is given once, and not for a body someone started reading or a response it did not make', async () => {
    const response = await turn('hi');
    expect(sseChunksOf(response)).toBeDefined();
    expect(sseChunksOf(response)).toBeUndefined();

    const read = await turn('hi');
    const reader = read.body!.getReader();
    expect(sseChunksOf(read)).toBeUndefined();
    await reader.cancel();

    expect(sseChunksOf(new Response('{}', { headers: { 'content-type': 'application/json' } }))).toBeUndefined();
  });
});
