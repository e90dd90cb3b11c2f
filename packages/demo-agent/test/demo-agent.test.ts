import { estimateTokens, textOf, type AgentStreamEvent, type LLMProvider } from '@lousho/build-ai-agent';
import { describe, expect, it } from 'vitest';
import {
  createDemoAgent,
  createDemoModel,
  DEMO_CONTEXT_WINDOW,
  DEMO_MODEL_FAILURE_MESSAGE,
  DEMO_MODEL_ID,
  DEMO_MODEL_NOTICE,
  DEMO_SUMMARY_MODEL_ID,
  demoFindingsFor,
  demoSuggestions,
  demoWeatherFor,
  type DemoEmail,
} from '../src/index.js';
import { eventsOf, fastAgent, ofType } from './helpers.js';

describe('the demo agent', () => {
  it('answers a weather question from the tool result', async () => {
    const result = await fastAgent().send("What's the weather in Paris?");
    const w = demoWeatherFor('Paris');
    expect(result.finishReason).toBe('stop');
    expect(result.steps).toBe(2);
    expect(result.toolCalls.map((c) => [c.toolName, c.args, c.result])).toEqual([['get_weather', { city: 'Paris' }, w]]);
    expect(result.text).toBe(`It's ${w.temperatureC} °C and ${w.conditions} in Paris (humidity ${w.humidityPercent}%, wind ${w.windKph} km/h).`);
  });

  it('runs several calls of one message in a single model turn', async () => {
    const events = await eventsOf(fastAgent().stream('weather in Paris and Tokyo'));
    const calls = ofType(events, 'tool.call');
    expect(calls.map((c) => [c.step, c.args])).toEqual([
      [1, { city: 'Paris' }],
      [1, { city: 'Tokyo' }],
    ]);
    // Both calls were made before the model was called again.
    const secondStep = events.findIndex((e) => e.type === 'step.start' && e.step === 2);
    expect(events.findIndex((e) => e.type === 'tool.call' && e.args && (e.args as { city: string }).city === 'Tokyo')).toBeLessThan(secondStep);
    const done = events.at(-1) as Extract<AgentStreamEvent, { type: 'run.done' }>;
    expect(done).toMatchObject({ type: 'run.done', finishReason: 'stop', steps: 2 });
    expect(done.text).toContain('in Paris');
    expect(done.text).toContain('in Tokyo');
  });

  it('pauses an email for approval, sends it once when approved, and answers with the message id', async () => {
    const outbox: DemoEmail[] = [];
    const agent = fastAgent({ outbox });
    const paused = await agent.send('Send an email to bob@example.com about the launch');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.pendingApproval).toMatchObject({
      toolName: 'send_email',
      displayName: 'Send email',
      kind: 'tool',
      args: { to: 'bob@example.com', subject: 'the launch', body: expect.any(String) },
    });
    expect(outbox).toEqual([]);
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ to: 'bob@example.com', subject: 'the launch' });
    expect(agent.outbox).toBe(outbox);
    expect(done.finishReason).toBe('stop');
    expect(done.text).toContain(outbox[0]!.messageId);
    expect(done.text).toContain('bob@example.com');
  });

  it('keeps its own outbox when none is given', async () => {
    const agent = fastAgent();
    const paused = await agent.send('email sam@example.com');
    await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(agent.outbox.map((m) => m.to)).toEqual(['sam@example.com']);
    expect(fastAgent().outbox).toEqual([]);
  });

  it('does not send a rejected email and quotes the reviewer\'s note in its answer', async () => {
    const agent = fastAgent();
    const paused = await agent.send('Send an email to bob@example.com');
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: false, note: 'Not to Bob, he is on leave' });
    expect(agent.outbox).toEqual([]);
    expect(done.finishReason).toBe('stop');
    expect(done.text).toBe('OK, I did not send the email to bob@example.com: you rejected it with the note "Not to Bob, he is on leave".');
  });

  it('asks a question, pauses, and builds its answer on the reply', async () => {
    const agent = fastAgent();
    const paused = await agent.send('Help me plan a trip');
    expect(paused.pendingApproval).toMatchObject({ kind: 'question', toolName: 'ask_question', question: 'Where would you like to go?' });
    const done = await agent.approvals.answer({ id: paused.approvalId!, answer: 'Lisbon' });
    expect(done.text).toContain('Lisbon it is!');
    expect(done.text).toContain("What's the weather in Lisbon?");
  });

  it('reports research progress as tool.progress events and hands the sources to the UI as an artifact only', async () => {
    const events = await eventsOf(fastAgent().stream('Research the history of the bicycle'));
    const progress = ofType(events, 'tool.progress');
    expect(progress.map((p) => p.progress)).toEqual([
      { step: 1, total: 4, message: 'Searching for sources on the history of the bicycle' },
      { step: 2, total: 4, message: 'Reading 3 sources' },
      { step: 3, total: 4, message: 'Comparing what the sources say' },
      { step: 4, total: 4, message: 'Writing up the findings' },
    ]);
    expect(progress.every((p) => p.toolName === 'research_topic')).toBe(true);
    const [done] = ofType(events, 'tool.done');
    expect(done!.artifacts).toEqual([{ type: 'sources', title: 'Sources on the history of the bicycle', data: expect.arrayContaining([expect.objectContaining({ url: expect.stringMatching(/^https:\/\//) })]) }]);
    expect((done!.artifacts![0]!.data as unknown[]).length).toBe(3);
    const final = events.at(-1) as Extract<AgentStreamEvent, { type: 'run.done' }>;
    for (const finding of demoFindingsFor('the history of the bicycle')) expect(final.text).toContain(finding);
  });

  it('keeps the sources out of what the model sees', async () => {
    const result = await fastAgent().send('research bees');
    const toolMessage = result.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).not.toContain('https://');
    expect(result.toolCalls[0]!.artifacts?.[0]?.type).toBe('sources');
  });

  it('stops a running research at once when the run is aborted, with a cancelled result', async () => {
    // Real tool delays (about 3 s for the research): only a prompt stop avoids all four steps.
    const agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }) });
    const controller = new AbortController();
    const run = agent.stream('research the history of tea', { signal: controller.signal });
    const events: AgentStreamEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === 'tool.progress') controller.abort();
    }
    const result = await run.result;
    expect(result.finishReason).toBe('aborted');
    expect(ofType(events, 'tool.progress')).toHaveLength(1);
    expect(ofType(events, 'tool.done')).toEqual([]);
    expect(ofType(events, 'tool.error').map((e) => e.error.kind)).toEqual(['cancelled']);
    const toolMessage = result.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content as string)).toMatchObject({ kind: 'cancelled', toolName: 'research_topic' });
  });

  it('echoes HTML verbatim, as streamed text and as the final answer', async () => {
    const html = '<img src=x onerror=alert(1)>';
    const events = await eventsOf(fastAgent().stream(`echo ${html}`));
    expect(ofType(events, 'text.delta').map((e) => e.delta).join('')).toBe(html);
    expect(events.at(-1)).toMatchObject({ type: 'run.done', text: html });
  });

  it('fails the run with an error event when asked to simulate an error', async () => {
    const run = fastAgent().stream('simulate error');
    const events = await eventsOf(run);
    await expect(run.result).rejects.toThrow(DEMO_MODEL_FAILURE_MESSAGE);
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'error', error: { code: 'LOUSHO_PROVIDER_ERROR', message: DEMO_MODEL_FAILURE_MESSAGE } }));
    expect(ofType(events, 'run.done')).toEqual([]);
  });

  it('can carry on in the same session after a failure', async () => {
    const agent = fastAgent();
    const session = agent.session('s1');
    await expect(session.send('simulate error')).rejects.toThrow(DEMO_MODEL_FAILURE_MESSAGE);
    await expect(session.send('echo still here')).resolves.toMatchObject({ text: 'still here' });
  });

  it('gives the same conversation the same replies and calls on a fresh agent, with call ids unique across turns', async () => {
    const ids: string[] = [];
    const conversation = async () => {
      const session = fastAgent().session('same');
      const first = await session.send('weather in Oslo and research fjords');
      const second = await session.send('weather in Oslo');
      return [first, second].map((r) => ({ text: r.text, calls: r.toolCalls.map((c) => (ids.push(c.toolCallId), [c.toolName, c.args, c.result])) }));
    };
    const a = await conversation();
    expect(a[0]!.calls).toHaveLength(2);
    expect(await conversation()).toEqual(a);
    // Tool call ids are unique across turns and sessions (fresh per response, as a provider makes them).
    expect(new Set(ids).size).toBe(6);
  });

  it('uses the offline demo model by default and reports usage', async () => {
    const events = await eventsOf(createDemoAgent({ toolDelayScale: 0 }).stream('echo ok'));
    expect(events[0]).toMatchObject({ type: 'run.start', model: DEMO_MODEL_ID });
    const done = events.at(-1) as Extract<AgentStreamEvent, { type: 'run.done' }>;
    expect(done.text).toBe('ok');
    expect(done.usage.inputTokens).toBeGreaterThan(0);
    expect(done.usage.outputTokens).toBeGreaterThan(0);
  });

  it('uses a provider it is given instead', async () => {
    const provider = { name: 'custom', defaultModel: 'c-1', async *stream() { yield { type: 'text-delta' as const, text: 'from custom' }; yield { type: 'finish' as const, finishReason: 'stop' as const }; } };
    const result = await createDemoAgent({ provider, model: 'c-2' }).send('hi');
    expect(result.text).toBe('from custom');
  });
});

describe('what the UIs show', () => {
  it('has a one-line notice that names the offline demo model', () => {
    expect(DEMO_MODEL_NOTICE).toContain('offline demo model');
    expect(DEMO_MODEL_NOTICE).not.toContain('\n');
  });

  it('offers suggestions that each do what their label says', async () => {
    expect(demoSuggestions.length).toBeGreaterThanOrEqual(4);
    expect(demoSuggestions.length).toBeLessThanOrEqual(7);
    const outcomes: string[] = [];
    for (const { prompt } of demoSuggestions) {
      const events = await eventsOf(fastAgent().stream(prompt));
      const last = events.at(-1)!;
      const tools = [...new Set(ofType(events, 'tool.call').map((e) => e.toolName))].join('+');
      outcomes.push(last.type === 'error' ? 'error' : `${tools || 'text'}:${last.type === 'run.done' ? last.finishReason : last.type}`);
    }
    expect(outcomes).toEqual([
      'get_weather:stop',
      'task+research_topic+save_findings:awaiting-approval',
      'send_email:awaiting-approval',
      'ask_question:awaiting-approval',
      'text:stop',
      'error',
      'shell:guardrail',
    ]);
    const echo = demoSuggestions.find((s) => s.prompt.startsWith('echo '))!;
    expect((await fastAgent().send(echo.prompt)).text).toBe(echo.prompt.slice('echo '.length));
  });

  it('keeps a chat of any length inside the window: prunes old tool results first, then summarizes old turns with the demo model', async () => {
    // Every request the agent sends, measured the way compaction measures it.
    const sent: { model: string | undefined; tokens: number; first: string }[] = [];
    const model = createDemoModel({ charDelayMs: 0 });
    const measured: LLMProvider = {
      ...model,
      stream(request) {
        const tokens =
          3 +
          (request.system ? estimateTokens({ role: 'system', content: request.system }, { model: DEMO_MODEL_ID }) : 0) +
          (request.tools?.length ? estimateTokens(JSON.stringify(request.tools), { model: DEMO_MODEL_ID }) : 0) +
          request.messages.reduce((sum, m) => sum + estimateTokens(m, { model: DEMO_MODEL_ID }), 0);
        sent.push({ model: request.model, tokens, first: textOf(request.messages[0]!) });
        return model.stream(request);
      },
    };
    const agent = createDemoAgent({ provider: measured, toolDelayScale: 0 });
    const sessionId = 'long-chat';
    const compactions: Extract<AgentStreamEvent, { type: 'compaction.done' }>[] = [];
    const prompts = ['Weather in Berlin, Rome and Oslo?', 'Research the history of tea', "What's the weather in Tokyo?", 'Hello there'];
    // 41 turns, the last one a weather question again.
    const turns = 41;
    const inputPerTurn: number[] = [];
    let lastText = '';
    for (let turn = 1; turn <= turns; turn++) {
      const prompt = prompts[(turn - 1) % prompts.length]!;
      const events = await eventsOf(agent.stream(prompt, { sessionId }));
      const done = ofType(events, 'run.done')[0]!;
      expect({ turn, end: events.at(-1) }, JSON.stringify(events.at(-1))).toMatchObject({ end: { type: 'run.done', finishReason: 'stop' } });
      compactions.push(...ofType(events, 'compaction.done'));
      inputPerTurn.push(done.usage.inputTokens);
      lastText = done.text ?? '';
      // The first turns fit the window as they are.
      if (turn <= 3) expect(compactions).toEqual([]);
    }
    // The newest answer is still the right one, summary or not.
    expect(lastText).toContain(`${demoWeatherFor('Oslo').temperatureC} °C`);

    // No request ever went over the window.
    expect(Math.max(...sent.map((r) => r.tokens))).toBeLessThanOrEqual(DEMO_CONTEXT_WINDOW);
    // Compacted again and again: pruning first, then summaries once pruning was not enough.
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    expect(compactions[0]!.summarized).toBe(0);
    expect(compactions[0]!.pruned).toBeGreaterThan(0);
    const summaries = compactions.filter((c) => c.summarized > 0);
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (const done of compactions) {
      expect(done.tokensAfter).toBeLessThan(done.tokensBefore);
      expect(done.tokensAfter).toBeLessThanOrEqual(DEMO_CONTEXT_WINDOW);
    }
    // The demo model wrote the summaries; the lead's requests after one start with it, counting every earlier request.
    expect(sent.filter((r) => r.model === DEMO_SUMMARY_MODEL_ID)).toHaveLength(summaries.length);
    const summary = sent.at(-1)!.first;
    expect(summary).toMatch(/^\[Summary of the earlier conversation\]\nThe user made \d+ requests before this point; the newest 4:\n- Asked "/);
    expect(Number(/made (\d+) requests/.exec(summary)![1])).toBeGreaterThan(turns / 2);
    // What a turn costs stays flat: the last eight turns send no more than turns 5-12, when compaction
    // began, give or take 1 % (where the summaries fall shifts with the size of the tool list).
    expect(Math.max(...inputPerTurn.slice(-8))).toBeLessThanOrEqual(Math.max(...inputPerTurn.slice(4, 12)) * 1.01);
  });

  it('does not compact with another provider unless given a context window', async () => {
    const provider = { ...createDemoModel({ charDelayMs: 0 }), name: 'other' };
    const agent = createDemoAgent({ provider, toolDelayScale: 0 });
    for (let turn = 1; turn <= 8; turn++) {
      const events = await eventsOf(agent.stream('Weather in Berlin, Rome and Oslo?', { sessionId: 'other' }));
      expect(ofType(events, 'compaction.done')).toEqual([]);
    }
  });
});
