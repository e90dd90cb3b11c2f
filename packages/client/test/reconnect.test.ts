import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgentHandler, defineTool, PROTOCOL_VERSION } from '@lousho/core';
// The HTTP handler's test helpers (a served agent, scripted tools): one copy, in core's tests.
import { agentWith, plain, reduceAll, serve, type TestServer } from '../../core/test/http/helpers.js';
import { createAgentClient, type AgentClient, type AgentClientOptions, type AgentUIState, type ClientAgent, type UIToolPart } from '../src/index.js';
import { flakyNetwork, type FlakyNetwork } from './flaky-network.js';

// The network faults here are real: a TCP proxy between the client and a node:http server cuts the
// connections (in the middle of a response, at a random byte) and drops new ones while it is down.
// Only time is fake: setTimeout and Date (the client's backoff, the model's and the tool's delays),
// so a 30-second outage takes a fraction of a second; sockets and setImmediate are real.

const servers: TestServer[] = [];
const networks: FlakyNetwork[] = [];
const clients: AgentClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  for (const client of clients.splice(0)) client.destroy();
  for (const network of networks.splice(0)) await network.close();
  for (const server of servers.splice(0)) await server.close();
});

const fakeTime = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
const realTurn = () => new Promise((resolve) => setImmediate(resolve));
const STEP_MS = 25;

/** Lets `ms` of fake time pass in small steps, with real event-loop turns (socket I/O) between them. */
async function elapse(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += STEP_MS) {
    await vi.advanceTimersByTimeAsync(STEP_MS);
    await realTurn();
  }
}

/** Moves fake time on until `check()` holds (at most `limitMs` of it). */
async function until(check: () => boolean, limitMs = 300_000): Promise<void> {
  for (let t = 0; !check(); t += STEP_MS) {
    if (t > limitMs) throw new Error(`not reached after ${limitMs} ms of fake time`);
    await vi.advanceTimersByTimeAsync(STEP_MS);
    await realTurn();
  }
}

const toolParts = (state: AgentUIState): UIToolPart[] => state.messages.flatMap((m) => m.parts.filter((p): p is UIToolPart => p.type === 'tool'));

/** A turn with streamed text, a tool call that takes 3 s, and more text after it. */
function weatherAgent() {
  const lookup = defineTool({
    name: 'lookup',
    displayName: 'Look up',
    description: 'Looks the weather up',
    input: z.object({ city: z.string() }),
    async execute({ city }, ctx) {
      ctx.reportProgress?.({ step: 'asking the weather service' });
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      return { city, sky: 'sunny' };
    },
  });
  return agentWith(
    [
      { text: 'Let me look the weather up for you, one moment please.', toolCalls: [{ name: 'lookup', id: 'call_1', args: { city: 'Paris' } }], delayMs: 40 },
      { text: 'It is sunny in Paris today, with a light breeze from the west and no rain.', delayMs: 40 },
    ],
    { tools: [lookup] },
  ).agent;
}

interface Session {
  agent: ClientAgent;
  network: FlakyNetwork;
  client: AgentClient;
  /** Every state the client notified. */
  seen: AgentUIState[];
  /** The `send` result, once it settled. */
  result: () => Awaited<ReturnType<AgentClient['send']>> | undefined;
}

/** A new agent behind the handler and a flaky network, and a client that sends one turn (cut after `cutAt` bytes). */
async function session(options: AgentClientOptions = {}, cutAt?: number, fetchThrough?: typeof fetch): Promise<Session & { cut: Promise<void> }> {
  const agent = weatherAgent();
  const server = await serve(createAgentHandler(agent));
  servers.push(server);
  const network = await flakyNetwork(server.url);
  networks.push(network);
  const client = createAgentClient({ url: network.url, ...(fetchThrough ? { fetch: fetchThrough } : {}) }, { throttleMs: 0, ...options });
  clients.push(client);
  const seen: AgentUIState[] = [];
  client.subscribe((state) => seen.push(state));
  const cut = cutAt === undefined ? new Promise<void>(() => {}) : network.cutAfter(cutAt);
  let settled: Awaited<ReturnType<AgentClient['send']>> | undefined;
  void client.send('What is the weather in Paris?').then((result) => (settled = result));
  return { agent, network, client, seen, result: () => settled, cut };
}

/** The state the server's own event log reduces to. */
const fromLog = (s: Session) => plain(reduceAll(s.agent.sessions.eventsAfter(s.client.sessionId!, 0)));

/** A state without what differs between two sessions of the same script (the run id). */
const comparable = (state: AgentUIState) => plain({ ...state, runId: undefined });

/** An uncut run: its final state, and where in its HTTP response the cut may fall. */
async function uncutRun(): Promise<{ state: unknown; firstCut: number; lastCut: number }> {
  fakeTime();
  try {
    const s = await session();
    await until(() => s.result() !== undefined);
    expect(s.result()).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(plain(s.client.getSnapshot())).toEqual(fromLog(s));
    const raw = s.network.firstConnection;
    // From right after the version frame (the stream is open) to well before the leg's last event.
    const body = raw.indexOf('\r\n\r\n');
    const firstCut = raw.indexOf('\n\n', raw.indexOf(PROTOCOL_VERSION, body)) + 2;
    const lastCut = raw.lastIndexOf('"type":"run.done"') - 400;
    expect(raw.indexOf(PROTOCOL_VERSION, body)).toBeGreaterThan(body);
    expect(firstCut).toBeGreaterThan(body);
    expect(lastCut).toBeGreaterThan(firstCut + 1_000);
    return { state: comparable(s.client.getSnapshot()), firstCut, lastCut };
  } finally {
    await cleanup();
  }
}

async function cleanup(): Promise<void> {
  vi.useRealTimers();
  for (const client of clients.splice(0)) client.destroy();
  for (const network of networks.splice(0)) await network.close();
  for (const server of servers.splice(0)) await server.close();
}

describe('reconnecting after the network went down (real cuts, fake time)', () => {
  let reference: Awaited<ReturnType<typeof uncutRun>> | undefined;

  it.each([1_000, 5_000, 30_000])('an outage of %i ms at a random point of the stream ends in the exact state of an uncut run', async (outageMs) => {
    reference ??= await uncutRun();
    const { state: uncut, firstCut, lastCut } = reference;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: firstCut, max: lastCut }), async (cutAt) => {
        fakeTime();
        try {
          const errors: unknown[] = [];
          const s = await session({ onError: (error) => errors.push(error) }, cutAt);
          let cut = false;
          void s.cut.then(() => (cut = true));
          await until(() => cut);
          await elapse(outageMs);
          // Still trying, showing it, and nothing given up on.
          expect(s.client.getSnapshot().status).toBe('reconnecting');
          expect(s.result()).toBeUndefined();
          s.network.up();
          await until(() => s.result() !== undefined);

          expect(s.result()).toMatchObject({ ok: true, finishReason: 'stop' });
          expect(plain(s.client.getSnapshot())).toEqual(fromLog(s));
          expect(comparable(s.client.getSnapshot())).toEqual(uncut);
          expect(errors).toEqual([]);
          // Along the way: `reconnecting` shown, never an error, and no tool call marked cancelled.
          expect(s.seen.map((state) => state.status)).toContain('reconnecting');
          for (const state of s.seen) {
            expect(state.status).not.toBe('error');
            for (const part of toolParts(state)) expect(part.state).not.toBe('cancelled');
          }
        } finally {
          await cleanup();
        }
      }),
      { numRuns: 4 },
    );
  }, 120_000);

  it('gives up after two minutes without reaching the server: LOUSHO_NETWORK_ERROR, the running tool call left as it was', async () => {
    fakeTime();
    const onError = vi.fn();
    const s = await session({ onError });
    await until(() => toolParts(s.client.getSnapshot()).some((part) => part.state === 'running'));
    s.network.down();
    await elapse(119_000);
    expect(s.client.getSnapshot().status).toBe('reconnecting');
    expect(onError).not.toHaveBeenCalled();
    // The first attempt after the limit gives up (attempts are at most 8 s apart).
    await elapse(10_000);
    const state = s.client.getSnapshot();
    expect(state).toMatchObject({ status: 'error', error: { code: 'LOUSHO_NETWORK_ERROR' } });
    expect(toolParts(state)).toEqual([expect.objectContaining({ toolCallId: 'call_1', state: 'running' })]);
    expect(s.result()).toMatchObject({ ok: false, error: { code: 'LOUSHO_NETWORK_ERROR' } });
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'LOUSHO_NETWORK_ERROR' }));
    // Meanwhile the server finished the run; a reload shows it.
    expect(s.agent.sessions.get(s.client.sessionId!)!.status).toBe('idle');
  }, 60_000);

  it('reconnectTimeoutMs sets the limit', async () => {
    fakeTime();
    const s = await session({ reconnectTimeoutMs: 10_000 });
    await until(() => toolParts(s.client.getSnapshot()).some((part) => part.state === 'running'));
    s.network.down();
    await elapse(9_500);
    expect(s.client.getSnapshot().status).toBe('reconnecting');
    await elapse(9_000);
    expect(s.client.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'LOUSHO_NETWORK_ERROR' } });
  }, 60_000);

  it("tries again at once on the browser's online event, and leaves no listener behind", async () => {
    fakeTime();
    const target = new EventTarget();
    const listeners = new Set<unknown>();
    vi.stubGlobal('addEventListener', (type: string, listener: EventListener) => {
      listeners.add(listener);
      target.addEventListener(type, listener);
    });
    vi.stubGlobal('removeEventListener', (type: string, listener: EventListener) => {
      listeners.delete(listener);
      target.removeEventListener(type, listener);
    });
    const s = await session();
    await until(() => toolParts(s.client.getSnapshot()).some((part) => part.state === 'running'));
    s.network.down();
    // Long enough that the client waits the longest backoff (8 s) between attempts.
    await elapse(40_000);
    expect(s.client.getSnapshot().status).toBe('reconnecting');
    expect(listeners.size).toBe(1);
    s.network.up();
    const before = Date.now();
    target.dispatchEvent(new Event('online'));
    // Reconnected with real I/O only: not a millisecond of fake time passed.
    for (let turn = 0; s.client.getSnapshot().status === 'reconnecting'; turn++) {
      if (turn > 2_000) throw new Error('did not reconnect on `online`');
      await realTurn();
    }
    expect(Date.now()).toBe(before);
    await until(() => s.result() !== undefined);
    expect(s.result()).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(plain(s.client.getSnapshot())).toEqual(fromLog(s));
    expect(listeners.size).toBe(0);
  }, 60_000);

  it('stop() while the server cannot be reached is refused, and the run is still followed to its end', async () => {
    fakeTime();
    const onError = vi.fn();
    const s = await session({ onError });
    await until(() => toolParts(s.client.getSnapshot()).some((part) => part.state === 'running'));
    s.network.down();
    await elapse(2_000);
    let stopped: Awaited<ReturnType<AgentClient['stop']>> | undefined;
    void s.client.stop().then((result) => (stopped = result));
    await until(() => stopped !== undefined);
    expect(stopped).toMatchObject({ ok: false, error: { code: 'LOUSHO_NETWORK_ERROR' } });
    expect(s.client.getSnapshot().status).toBe('reconnecting');
    s.network.up();
    await until(() => s.result() !== undefined);
    expect(s.result()).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(plain(s.client.getSnapshot())).toEqual(fromLog(s));
    expect(onError).toHaveBeenCalledTimes(1);
  }, 60_000);

  it('a gateway answering 502, 503 or 504 while the server restarts is retried; a 404 or a 500 is not', async () => {
    fakeTime();
    /** A fetch through a proxy that answers the next resumes with these statuses. */
    const proxied =
      (statuses: number[]): typeof fetch =>
      async (input, init) => {
        const request = new Request(input, init);
        const status = request.url.endsWith('/events') ? statuses.shift() : undefined;
        return status ? new Response('<html>Bad gateway</html>', { status }) : fetch(request);
      };
    const answers = [502, 503, 504];
    const s = await session({}, undefined, proxied(answers));
    await until(() => toolParts(s.client.getSnapshot()).some((part) => part.state === 'running'));
    s.network.down();
    s.network.up();
    await until(() => s.result() !== undefined);
    expect(answers).toEqual([]);
    expect(s.result()).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(plain(s.client.getSnapshot())).toEqual(fromLog(s));

    const notFound = await session({}, undefined, proxied([404]));
    await until(() => toolParts(notFound.client.getSnapshot()).some((part) => part.state === 'running'));
    notFound.network.down();
    notFound.network.up();
    await until(() => notFound.result() !== undefined);
    expect(notFound.result()).toMatchObject({ ok: false, error: { code: 'LOUSHO_BAD_RESPONSE', message: 'HTTP 404' } });

    // A server error is not a gateway's: trying again would fail the same way.
    const broken = await session({}, undefined, proxied([500]));
    await until(() => toolParts(broken.client.getSnapshot()).some((part) => part.state === 'running'));
    broken.network.down();
    broken.network.up();
    await until(() => broken.result() !== undefined);
    expect(broken.result()).toMatchObject({ ok: false, error: { code: 'LOUSHO_BAD_RESPONSE', message: 'HTTP 500' } });
  }, 60_000);
});
