import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent, createAgentHandler, type ExecutionResult } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { CronTriggerAdapter, type TriggerEvent } from '../src/index.js';

const MINUTE = 60_000;

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2025-06-02T08:59:00Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function recorder(work: () => Promise<void> = async () => {}) {
  const fired: { at: string; scheduledAt: string; event: TriggerEvent }[] = [];
  const onEvent = async (_input: unknown, event: TriggerEvent) => {
    fired.push({ at: new Date().toISOString(), scheduledAt: (event.payload as { scheduledAt: Date }).scheduledAt.toISOString(), event });
    await work();
  };
  return { fired, onEvent };
}

/** stop() waits for a run in progress: let the fake clock run while it does. */
async function stopWhileTicking(cron: CronTriggerAdapter): Promise<void> {
  const stopped = cron.stop();
  await vi.advanceTimersByTimeAsync(60 * MINUTE);
  await stopped;
}

const agent = () => createAgent({ provider: mockModel(['done'], { whenExhausted: 'repeat-last' }) });

describe('CronTriggerAdapter: the timer', () => {
  it('fires on the schedule, in the zone given', async () => {
    const { fired, onEvent } = recorder();
    const cron = new CronTriggerAdapter({ cron: '*/15 9-17 * * MON-FRI', timezone: 'UTC', input: 'Check the queue' });
    await cron.listen(agent(), onEvent);
    expect(cron.nextRunAt?.toISOString()).toBe('2025-06-02T09:00:00.000Z');
    await vi.advanceTimersByTimeAsync(31 * MINUTE);
    expect(fired.map((f) => f.at)).toEqual(['2025-06-02T09:00:00.000Z', '2025-06-02T09:15:00.000Z', '2025-06-02T09:30:00.000Z']);
    await cron.stop();
  });

  it('re-arms from the scheduled time: a slow run does not make the schedule drift', async () => {
    // Each run takes 4 minutes.
    const { fired, onEvent } = recorder(() => new Promise((resolve) => setTimeout(resolve, 4 * MINUTE)));
    const cron = new CronTriggerAdapter({ cron: '*/5 * * * *', timezone: 'UTC', input: 'go' });
    await cron.listen(agent(), onEvent);
    await vi.advanceTimersByTimeAsync(16 * MINUTE);
    expect(fired.map((f) => f.at)).toEqual(['2025-06-02T09:00:00.000Z', '2025-06-02T09:05:00.000Z', '2025-06-02T09:10:00.000Z', '2025-06-02T09:15:00.000Z']);
    await stopWhileTicking(cron);
  });

  it('a run longer than the period skips the slots it overran instead of firing twice', async () => {
    const { fired, onEvent } = recorder(() => new Promise((resolve) => setTimeout(resolve, 12 * MINUTE)));
    const cron = new CronTriggerAdapter({ cron: '*/5 * * * *', timezone: 'UTC', input: 'go' });
    await cron.listen(agent(), onEvent);
    await vi.advanceTimersByTimeAsync(26 * MINUTE);
    // 09:00 runs until 09:12, so 09:05 and 09:10 are skipped; next 09:15 (until 09:27).
    expect(fired.map((f) => f.at)).toEqual(['2025-06-02T09:00:00.000Z', '2025-06-02T09:15:00.000Z']);
    await stopWhileTicking(cron);
  });

  it('after the machine slept past several slots, fires once, then keeps to the schedule', async () => {
    const { fired, onEvent } = recorder();
    const cron = new CronTriggerAdapter({ cron: '0 * * * *', timezone: 'UTC', input: 'go' });
    await cron.listen(agent(), onEvent);
    // The machine sleeps: the wall clock jumps 3.5 hours while no timer runs.
    vi.setSystemTime(new Date('2025-06-02T12:29:00Z'));
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fired.map((f) => f.scheduledAt)).toEqual(['2025-06-02T09:00:00.000Z']);
    // The timer had a minute left when the machine went to sleep.
    expect(fired[0]!.at).toBe('2025-06-02T12:30:00.000Z');
    expect(cron.nextRunAt?.toISOString()).toBe('2025-06-02T13:00:00.000Z');
    await vi.advanceTimersByTimeAsync(31 * MINUTE);
    expect(fired.map((f) => f.scheduledAt)).toEqual(['2025-06-02T09:00:00.000Z', '2025-06-02T13:00:00.000Z']);
    await cron.stop();
  });

  it('intervalMs keeps a fixed grid from listen()', async () => {
    const { fired, onEvent } = recorder(() => new Promise((resolve) => setTimeout(resolve, 25_000)));
    const cron = new CronTriggerAdapter({ intervalMs: 10_000, input: 'tick' });
    await cron.listen(agent(), onEvent);
    await vi.advanceTimersByTimeAsync(70_000);
    // Runs take 25 s: 10 s, then the next free slot 40 s, then 70 s.
    expect(fired.map((f) => (Date.parse(f.at) - Date.parse('2025-06-02T08:59:00Z')) / 1000)).toEqual([10, 40, 70]);
    await stopWhileTicking(cron);
  });

  it('waits more than 24.8 days correctly (@monthly)', async () => {
    vi.setSystemTime(new Date('2025-01-01T00:00:30Z'));
    const { fired, onEvent } = recorder();
    const cron = new CronTriggerAdapter({ cron: '@monthly', timezone: 'UTC', input: 'report' });
    await cron.listen(agent(), onEvent);
    await vi.advanceTimersByTimeAsync(30 * 24 * 60 * MINUTE);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(24 * 60 * MINUTE);
    expect(fired.map((f) => f.at)).toEqual(['2025-02-01T00:00:00.000Z']);
    await cron.stop();
  });

  it('stop() clears the timer, and a run in progress finishes without re-arming', async () => {
    let release!: () => void;
    const { fired, onEvent } = recorder(() => new Promise<void>((resolve) => (release = resolve)));
    const cron = new CronTriggerAdapter({ cron: '* * * * *', timezone: 'UTC', input: 'go' });
    await cron.listen(agent(), onEvent);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fired).toHaveLength(1);
    let stopped = false;
    const stopping = cron.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(fired).toHaveLength(1);
    expect(cron.nextRunAt).toBeUndefined();
  });
});

describe('CronTriggerAdapter: runs', () => {
  it('without onEvent runs the agent in a session of its own that the HTTP handler serves', async () => {
    const results: (ExecutionResult | undefined)[] = [];
    const a = agent();
    const cron = new CronTriggerAdapter({ cron: '0 9 * * *', timezone: 'UTC', input: 'Check the support queue', onResult: (result) => results.push(result) });
    await cron.listen(a);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ finishReason: 'stop', text: 'done' });
    const sessionId = results[0]!.sessionId;
    expect(sessionId).toMatch(/^cron-/);
    await cron.stop();
    vi.useRealTimers();
    const handle = createAgentHandler(a);
    const response = await handle(new Request(`http://localhost/sessions/${sessionId}`));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { messages: { role: string; content: unknown }[] };
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(body.messages[0]!.content).toBe('Check the support queue');
  });

  it('input may be a function of the scheduled time; onResult gets errors', async () => {
    const seen: unknown[] = [];
    const cron = new CronTriggerAdapter({
      cron: '0 9 * * *',
      timezone: 'UTC',
      input: (at) => `Report for ${at.toISOString().slice(0, 10)}`,
      onResult: (_result, error) => seen.push(error),
    });
    const inputs: unknown[] = [];
    await cron.listen(agent(), (input) => {
      inputs.push(input);
      throw new Error('provider down');
    });
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(inputs).toEqual(['Report for 2025-06-02']);
    expect((seen[0] as Error).message).toBe('provider down');
    await cron.stop();
  });

  it('refuses bad options with a clear error', () => {
    expect(() => new CronTriggerAdapter({ input: 'x' })).toThrow(/exactly one of `cron` and `intervalMs`/);
    expect(() => new CronTriggerAdapter({ cron: '* * * * *', intervalMs: 5, input: 'x' })).toThrow(/exactly one/);
    expect(() => new CronTriggerAdapter({ intervalMs: 0, input: 'x' })).toThrow(/positive number/);
    expect(() => new CronTriggerAdapter({ intervalMs: 5, timezone: 'UTC', input: 'x' })).toThrow(/timezone only applies/);
    expect(() => new CronTriggerAdapter({ cron: '* * *', input: 'x' })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CRON_EXPRESSION' }));
    expect(() => new CronTriggerAdapter({ cron: '* * * * *' } as never)).toThrow(/needs `input`/);
  });
});
