import { generateFromStream } from '@lousho/build-ai-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoAgent, createDemoModel, DEMO_CALL_IDS_ENV } from '../src/index.js';
import { ALL_TOOLS, eventsOf, user } from './helpers.js';

const idsOf = async (model = createDemoModel({ charDelayMs: 0 }), text = 'weather in Paris, Tokyo and Oslo') =>
  (await generateFromStream(model, { messages: [user(text)], tools: ALL_TOOLS })).toolCalls.map((call) => call.id);

afterEach(() => {
  delete process.env[DEMO_CALL_IDS_ENV];
});

describe("the demo model's call ids", () => {
  it('are unique per call, as a big provider makes them, also for the same request asked again', async () => {
    const first = await idsOf();
    const again = await idsOf();
    for (const id of [...first, ...again]) expect(id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(new Set([...first, ...again]).size).toBe(6);
  });

  it("are numbered per response with callIds: 'per-response' or the demo switch, as an OpenAI-compatible server may", async () => {
    expect(await idsOf(createDemoModel({ charDelayMs: 0, callIds: 'per-response' }))).toEqual(['call_0', 'call_1', 'call_2']);
    process.env[DEMO_CALL_IDS_ENV] = 'per-response';
    expect(await idsOf(createDemoModel({ charDelayMs: 0 }))).toEqual(['call_0', 'call_1', 'call_2']);
    // The option wins over the switch.
    expect(await idsOf(createDemoModel({ charDelayMs: 0, callIds: 'unique' }))).not.toContain('call_0');
  });

  it('refuse a scheme they do not know, with a clear error', () => {
    expect(() => createDemoModel({ callIds: 'sequential' as never })).toThrow(/callIds must be 'unique' or 'per-response', got "sequential"/);
    process.env[DEMO_CALL_IDS_ENV] = 'yes';
    expect(() => createDemoModel()).toThrow(/LOUSHO_DEMO_CALL_IDS must be 'unique' or 'per-response'/);
  });

  it('with ids that come again in every turn, each turn of the demo agent still shows its own calls', async () => {
    const agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0, callIds: 'per-response' }), toolDelayScale: 0 });
    let sessionId: string | undefined;
    const cities = ['Paris', 'Cairo', 'Dublin'];
    const { reduceAgentEvents } = await import('@lousho/build-ai-agent');
    let state: ReturnType<typeof reduceAgentEvents> | undefined;
    for (const city of cities) {
      for (const event of await eventsOf(agent.stream(`weather in ${city}`, sessionId ? { sessionId } : {}))) {
        sessionId ??= event.sessionId;
        state = reduceAgentEvents(state, event);
      }
    }
    const cards = state!.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool' ? [part] : [])));
    expect(cards.map((card) => [card.toolCallId, (card.args as { city: string }).city, (card.result as { city: string }).city])).toEqual(cities.map((city) => ['call_0', city, city]));
  });
});
