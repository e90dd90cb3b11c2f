import { isAbortError, splitArtifacts, type ToolExecutionContext } from '@lousho/build-ai-agent';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createDemoTools, createEmailTool, createResearchTool, createWeatherTool, demoWeatherFor, KNOWN_CITIES, RESEARCH_NOTE, type DemoEmail } from '../src/index.js';

const ctx = (extra: Partial<ToolExecutionContext> = {}): ToolExecutionContext => ({ toolCallId: 'call_1', messages: [], ...extra });
/** What `fn` threw, or undefined. */
const thrown = async (fn: () => unknown): Promise<unknown> => {
  try {
    await fn();
    return undefined;
  } catch (error) {
    return error;
  }
};
const aborted = () => {
  const controller = new AbortController();
  controller.abort();
  return controller.signal;
};

describe('get_weather', () => {
  it('gives the same report for the same city however it is written, with the known spelling', async () => {
    const tool = createWeatherTool({ delayScale: 0 });
    const a = await tool.execute({ city: 'sao paulo' }, ctx());
    const b = await tool.execute({ city: '  SÃO   PAULO ' }, ctx());
    expect(a).toEqual(b);
    expect(a.city).toBe('São Paulo');
    expect(demoWeatherFor('Gotham city').city).toBe('Gotham City');
  });

  it('gives different cities different weather', () => {
    const reports = KNOWN_CITIES.map((city) => JSON.stringify({ ...demoWeatherFor(city), city: '' }));
    expect(new Set(reports).size).toBeGreaterThan(KNOWN_CITIES.length / 2);
  });

  it('stays within plausible ranges for any city name (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (city) => {
        const w = demoWeatherFor(city);
        expect(Number.isInteger(w.temperatureC) && w.temperatureC >= -4 && w.temperatureC <= 33).toBe(true);
        expect(w.humidityPercent >= 30 && w.humidityPercent <= 90).toBe(true);
        expect(w.windKph >= 3 && w.windKph <= 37).toBe(true);
        expect(w.conditions).toMatch(/^[a-z ]+$/);
        if (w.temperatureC <= 1) expect(w.conditions).not.toMatch(/rain|showers/);
      }),
    );
  });

  it('honours an aborted signal', async () => {
    const error = await thrown(() => createWeatherTool().execute({ city: 'Paris' }, ctx({ abortSignal: aborted() })));
    expect(isAbortError(error)).toBe(true);
  });
});

describe('research_topic', () => {
  it('reports four progress steps, then returns findings with a sources artifact', async () => {
    const progress: unknown[] = [];
    const raw = await createResearchTool({ delayScale: 0 }).execute({ topic: 'tea' }, ctx({ reportProgress: (p) => progress.push(p) }));
    expect(progress).toHaveLength(4);
    expect(progress.at(-1)).toMatchObject({ step: 4, total: 4 });
    const { value, artifacts } = splitArtifacts(raw);
    expect(value.topic).toBe('tea');
    expect(value.findings.length).toBeGreaterThanOrEqual(3);
    expect(value.findings.length).toBeLessThanOrEqual(4);
    expect(value.note).toBe(RESEARCH_NOTE);
    expect(artifacts).toHaveLength(1);
    expect(artifacts![0]).toMatchObject({ type: 'sources' });
  });

  it('stops at once when aborted mid-research, reporting no further progress', async () => {
    // Fake timers: the research only settles without any clock advance if the abort cuts its wait short.
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const progress: unknown[] = [];
      let settled = false;
      const outcome = thrown(() =>
        createResearchTool({ delayScale: 1 }).execute({ topic: 'tea' }, ctx({ abortSignal: controller.signal, reportProgress: (p) => progress.push(p) })),
      ).finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(100);
      expect(progress).toHaveLength(1);
      controller.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(true);
      expect(isAbortError(await outcome)).toBe(true);
      expect(progress).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('works where no UI listens (no reportProgress)', async () => {
    const raw = await createResearchTool({ delayScale: 0 }).execute({ topic: 'tea' }, ctx());
    expect(splitArtifacts(raw).value.topic).toBe('tea');
  });
});

describe('send_email', () => {
  it('needs approval and refuses an invalid address', async () => {
    const tool = createEmailTool({ delayScale: 0 });
    expect(tool.needsApproval).toBe(true);
    expect(tool.displayName).toBe('Send email');
    const checked = await tool.input['~standard'].validate({ to: 'not-an-address', subject: 'Hi', body: '' });
    expect('issues' in checked && checked.issues?.[0]?.message).toContain('to must be an email address');
  });

  it('writes each sent email to the outbox once, with a distinct deterministic id', async () => {
    const outbox: DemoEmail[] = [];
    const tool = createEmailTool({ delayScale: 0, outbox });
    const first = await tool.execute({ to: 'a@example.com', subject: 'Hi', body: 'x' }, ctx());
    const second = await tool.execute({ to: 'a@example.com', subject: 'Hi', body: 'x' }, ctx());
    expect(outbox.map((m) => m.messageId)).toEqual([first.messageId, second.messageId]);
    expect(first.messageId).not.toBe(second.messageId);
    expect(first.messageId).toMatch(/^msg_0001_/);
    const again = await createEmailTool({ delayScale: 0 }).execute({ to: 'a@example.com', subject: 'Hi', body: 'x' }, ctx());
    expect(again).toEqual(first);
  });
});

describe('createDemoTools', () => {
  it('gives the five demo tools under the names the demo model calls', () => {
    expect(createDemoTools().map((t) => t.name)).toEqual(['get_weather', 'research_topic', 'send_email', 'ask_question', 'local_time']);
  });

  it('refuses a negative or non-finite delay scale', () => {
    expect(() => createDemoTools({ delayScale: -1 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => createDemoTools({ delayScale: Number.NaN })).toThrow(/delayScale/);
  });
});
