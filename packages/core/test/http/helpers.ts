import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent } from '../../src/index.js';
import { toNodeHandler, type FetchHandler, type NodeRequestListener } from '../../../node/src/node/index.js';
import { createEventStreamDecoder } from '@lousho/protocol';
import { mockModel, type MockModelStep, type MockModelOptions } from '@lousho/testing';
import { reduceAgentEvents, type AgentUIState } from '@lousho/protocol';

export interface TestServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1 (random port) serving `handler` through the Node adapter. */
export async function serve(handler: FetchHandler | NodeRequestListener): Promise<TestServer> {
  const listener = handler.length >= 2 ? (handler as NodeRequestListener) : toNodeHandler(handler as FetchHandler);
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A tool that needs approval for addresses outside the company, recording what it sent. */
export function emailTool() {
  const sent: string[] = [];
  const tool = defineTool({
    name: 'send_email',
    displayName: 'Send email',
    description: 'Send an email',
    input: z.object({ to: z.string(), subject: z.string() }),
    needsApproval: ({ to }) => !to.endsWith('@mycompany.com'),
    async execute({ to, subject }) {
      sent.push(to);
      return { messageId: `${to}:${subject}` };
    },
  });
  return { tool, sent };
}

export const emailCall = (to: string, id = 'call_email') => ({ name: 'send_email', id, args: { to, subject: 'Hi' } });

/** A promise with its resolve function, for tools the test releases when it is ready. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** A tool whose execution waits until the test opens `release`. */
export function slowTool() {
  const started = gate();
  const release = gate();
  const tool = defineTool({
    name: 'slow',
    description: 'slow work',
    input: z.object({}),
    async execute() {
      started.open();
      await release.promise;
      return 'slow result';
    },
  });
  return { tool, started, release };
}

export function agentWith(script: MockModelStep[], extra: { tools?: any[]; askQuestion?: boolean; model?: MockModelOptions } = {}) {
  const provider = mockModel(script, extra.model);
  const agent = createAgent({ provider, ...(extra.tools ? { tools: extra.tools } : {}), ...(extra.askQuestion ? { askQuestion: true } : {}) });
  return { agent, provider };
}

export interface ReadStream {
  events: AgentStreamEvent[];
  raw: string;
  version: string | undefined;
}

/** Reads a whole SSE response: the events, the raw text (comments included) and the announced version. */
export async function readSse(response: Response, until?: (raw: string, events: AgentStreamEvent[]) => boolean): Promise<ReadStream> {
  const events: AgentStreamEvent[] = [];
  const decoder = createEventStreamDecoder((event) => events.push(event));
  const reader = response.body!.getReader();
  const text = new TextDecoder();
  let raw = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      decoder.end();
      break;
    }
    raw += text.decode(value, { stream: true });
    decoder.push(value);
    if (until?.(raw, events)) {
      await reader.cancel();
      break;
    }
  }
  return { events, raw, version: decoder.version };
}

export function reduceAll(events: readonly AgentStreamEvent[], state?: AgentUIState): AgentUIState {
  let current = state;
  for (const event of events) current = reduceAgentEvents(current, event);
  return current!;
}

/**
 * The seqs a stream stands for: a replayed delta of a finished leg may merge the deltas
 * `fromSeq..seq` (the log is compacted when a leg ends), so it counts for each of them.
 */
export function coveredSeqs(events: readonly AgentStreamEvent[]): number[] {
  const seqs: number[] = [];
  for (const event of events) {
    const from = 'fromSeq' in event && event.fromSeq !== undefined ? event.fromSeq : event.seq;
    for (let seq = from; seq <= event.seq; seq++) seqs.push(seq);
  }
  return seqs;
}

/** Plain JSON, to compare states however they were built. */
export const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** The text of a stream's last step (what `run.done` of `agent.stream()` calls `text`; the wire leaves it out of `run.done`). */
export function lastStepText(events: readonly AgentStreamEvent[]): string {
  const from = events.findLastIndex((event) => event.type === 'step.start');
  let text = '';
  for (const event of events.slice(from + 1)) if (event.type === 'text.delta') text += event.delta;
  return text;
}

export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}
