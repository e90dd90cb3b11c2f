import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/agent/event-queue.js';
import { EventFeed, startRun } from '@lousho/protocol';
import { createAgent, type AgentStreamEvent } from '../../src/index.js';
import { PIPE_EVENTS } from '@lousho/protocol';
import { mockModel } from '@lousho/testing';

// startRun hands a run's events to a feed (what an HTTP stream and the in-process client read). A
// run from agent.stream() pipes them as they are emitted; any other async iterable is iterated.

const delta = (seq: number): AgentStreamEvent => ({ type: 'text.delta', seq, runId: 'r', sessionId: 's', step: 1, delta: `t${seq}` });

/** A run over `queue` that pipes (as drive-run's does), or only iterates. */
function runOf(queue: EventQueue, pipes = true): AsyncIterable<AgentStreamEvent> {
  const run = { [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
  if (pipes) Object.defineProperty(run, PIPE_EVENTS, { value: (sink: Parameters<EventQueue['pipe']>[0]) => queue.pipe(sink) });
  return run;
}

async function drain(feed: EventFeed): Promise<AgentStreamEvent[]> {
  const out: AgentStreamEvent[] = [];
  for (let batch; (batch = await feed.take()) !== null; ) out.push(...batch);
  return out;
}

describe('startRun', () => {
  for (const pipes of [true, false]) {
    describe(pipes ? 'a run that pipes' : 'a run that only iterates', () => {
      it('resolves at the first event; the feed gets the buffered events, then the later ones, in order, then its end', async () => {
        const queue = new EventQueue();
        queue.push(delta(1));
        queue.push(delta(2));
        const feed = await startRun(runOf(queue, pipes));
        queue.push(delta(3));
        queue.close();
        expect(await drain(feed)).toEqual([delta(1), delta(2), delta(3)]);
      });

      it('waits for the first event; a run that fails before any rejects with its error, one that ends without any gives an ended feed', async () => {
        const failing = new EventQueue();
        const refused = startRun(runOf(failing, pipes));
        const error = Object.assign(new Error('busy'), { code: 'LOUSHO_SESSION_BUSY' });
        failing.fail(error);
        await expect(refused).rejects.toBe(error);
        const empty = new EventQueue();
        const started = startRun(runOf(empty, pipes));
        empty.close();
        expect(await drain(await started)).toEqual([]);
      });

      it('a failure after the first event reaches the reader after the events before it', async () => {
        const queue = new EventQueue();
        queue.push(delta(1));
        const feed = await startRun(runOf(queue, pipes));
        queue.push(delta(2));
        const error = new Error('stream broke');
        queue.fail(error);
        const read: AgentStreamEvent[] = [];
        let failure: unknown;
        try {
          for (let batch; (batch = await feed.take()) !== null; ) read.push(...batch);
        } catch (caught) {
          failure = caught;
        }
        expect(read).toEqual([delta(1), delta(2)]);
        expect(failure).toBe(error);
      });

      it('a reader that goes away (the feed closed) gets nothing more, and nothing more is kept for it', async () => {
        const queue = new EventQueue();
        queue.push(delta(1));
        const feed = await startRun(runOf(queue, pipes));
        feed.close();
        queue.push(delta(2));
        // (The iterating copy notices at its next step.)
        await new Promise((resolve) => setTimeout(resolve, 0));
        queue.push(delta(3));
        expect(feed.closed).toBe(true);
        expect(await feed.take()).toBeNull();
      });
    });
  }

  it('a run of agent.stream() pipes: the feed holds the events an iteration of the same run gives', async () => {
    // (One scripted reply per run.)
    const agent = createAgent({ provider: mockModel(['Hello there, how are you?', 'Hello there, how are you?']) });
    const run = agent.stream('hi', { sessionId: 's1' });
    expect(PIPE_EVENTS in run).toBe(true);
    const feed = await startRun(run);
    const piped = await drain(feed);
    const iterated: AgentStreamEvent[] = [];
    for await (const event of agent.stream('hi', { sessionId: 's2' })) iterated.push(event);
    const shape = (events: AgentStreamEvent[]) => events.map(({ type, ...rest }) => [type, (rest as { delta?: string }).delta]);
    expect(shape(piped)).toEqual(shape(iterated));
    expect(piped.map((event) => event.seq)).toEqual(piped.map((_, i) => i + 1));
    expect(piped.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
  });

  it('a queue is read once: piping after iterating (or twice) is refused with LOUSHO_INVALID_INPUT', () => {
    const queue = new EventQueue();
    queue.pipe(new EventFeed());
    expect(() => queue.pipe(new EventFeed())).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_INPUT' }));
  });
});
