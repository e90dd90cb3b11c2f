import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GenerateOptions, StreamChunk } from '@lousho/protocol';
import { keepStoppedCall, streamModelCall } from '../../../src/agent/stages/model-call.js';
import { recordAnswer } from '../../../src/agent/stages/model-answer.js';
import { checkOutput, repairMessage } from '../../../src/agent/stages/structured-output.js';
import { prepareModelCall } from '../../../src/agent/stages/model-request.js';
import { scriptedProvider, stageFixture } from './fixture.js';

const request = (messages: GenerateOptions['messages']): GenerateOptions => ({ messages });

const toolTurn: StreamChunk[] = [
  { type: 'text-delta', text: 'Let me ' },
  { type: 'reasoning-delta', text: 'thinking' },
  { type: 'text-delta', text: 'add.' },
  { type: 'tool-call-start', index: 0, id: 'call_1', name: 'add' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1,' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '"b":2}' },
  { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 5 } },
];

describe('stage: recall memory / list skills → preGenerate hooks → compaction (the request)', () => {
  it('builds the request from the run (model, system prompt, tools) and lets preGenerate hooks see it', async () => {
    const seen: GenerateOptions[] = [];
    const f = stageFixture({ system: 'Be brief.', temperature: 0.2, hooks: [{ name: 'peek', preGenerate: (ctx) => void seen.push(ctx.request) }] });
    const built = await prepareModelCall(f.deps, f.snapshot, 1, f.scope.usage, undefined);
    expect(built).toMatchObject({ model: 'scripted-1', system: 'Be brief.', temperature: 0.2 });
    expect(built.messages).toBe(f.snapshot.messages);
    expect(seen).toEqual([built]);
  });
});

describe('stage: model', () => {
  it('streams the call as events and assembles the answer', async () => {
    const f = stageFixture({ provider: scriptedProvider(toolTurn) });
    const call = await streamModelCall(f.deps, f.snapshot, 1, request(f.snapshot.messages));
    expect(call.aborted).toBe(false);
    expect(call.modelId).toBe('scripted-1');
    expect(f.events).toEqual([
      { type: 'text.delta', step: 1, delta: 'Let me ' },
      { type: 'reasoning.delta', step: 1, delta: 'thinking' },
      { type: 'text.delta', step: 1, delta: 'add.' },
      { type: 'tool.input.start', step: 1, toolCallId: 'call_1', toolName: 'add', displayName: 'add' },
      { type: 'tool.input.delta', toolCallId: 'call_1', delta: '{"a":1,' },
      { type: 'tool.input.delta', toolCallId: 'call_1', delta: '"b":2}' },
    ]);
    expect(call.assembler.toolCalls).toEqual([{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' }]);
  });

  it('a stop mid-stream ends the call quietly (aborted); any other provider failure propagates', async () => {
    const controller = new AbortController();
    const stopping = scriptedProvider(async function* () {
      yield { type: 'text-delta', text: 'Half' } as StreamChunk;
      controller.abort();
      yield { type: 'text-delta', text: ' more' } as StreamChunk;
      yield { type: 'text-delta', text: ' never read' } as StreamChunk;
    });
    const f = stageFixture({ provider: stopping, signal: controller.signal });
    const call = await streamModelCall(f.deps, f.snapshot, 1, request(f.snapshot.messages));
    expect(call.aborted).toBe(true);
    // The chunk that came with the stop is kept; nothing after it is read.
    expect(call.assembler.text).toBe('Half more');

    const failing = stageFixture({
      provider: scriptedProvider(async function* () {
        yield* [];
        throw new Error('provider down');
      }),
    });
    await expect(streamModelCall(failing.deps, failing.snapshot, 1, request([]))).rejects.toThrow('provider down');
  });

  it('a stopped call keeps the text the person saw (marked aborted) and still costs its tokens', async () => {
    const controller = new AbortController();
    const f = stageFixture({
      signal: controller.signal,
      provider: scriptedProvider(async function* () {
        yield { type: 'text-delta', text: 'Partial answer' } as StreamChunk;
        controller.abort();
      }),
    });
    const req = request(f.snapshot.messages);
    const call = await streamModelCall(f.deps, f.snapshot, 1, req);
    expect(await keepStoppedCall(f.deps, f.snapshot, f.scope.usage, call, req)).toBe('Partial answer');
    expect(f.snapshot.messages.at(-1)).toEqual({ role: 'assistant', content: 'Partial answer', metadata: { aborted: true } });
    expect(f.snapshot.stepUsage).toHaveLength(1);
    expect(f.snapshot.usage.totalTokens).toBeGreaterThan(0);
    expect(f.checkpoints).toBe(1);
  });
});

describe('after the model call: the answer is recorded', () => {
  it('joins the transcript, counts its usage, runs postGenerate hooks, then step.done and a checkpoint', async () => {
    const order: string[] = [];
    const f = stageFixture({
      provider: scriptedProvider(toolTurn),
      hooks: [{ name: 'after', postGenerate: (_ctx, response) => void order.push(`postGenerate ${response.finishReason}`) }],
      onLLMResponse: () => void order.push('onLLMResponse'),
      checkpoint: () => void order.push('checkpoint'),
    });
    const req = request(f.snapshot.messages);
    const call = await streamModelCall(f.deps, f.snapshot, 1, req);
    f.events.length = 0;
    const answer = await recordAnswer(f.deps, f.snapshot, f.scope.usage, call, req, 1);
    expect(answer).toMatchObject({ text: 'Let me add.', finishReason: 'tool_calls', toolCalls: [{ id: 'call_1' }] });
    expect(f.snapshot.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Let me add.', toolCalls: [{ id: 'call_1' }] });
    expect(Object.isFrozen(f.snapshot.messages.at(-1))).toBe(true);
    expect(f.snapshot.usage.totalTokens).toBe(15);
    expect(order).toEqual(['postGenerate tool_calls', 'onLLMResponse', 'checkpoint']);
    expect(f.events).toEqual([expect.objectContaining({ type: 'step.done', step: 1, finishReason: 'tool_calls' })]);
  });
});

describe('stage: structured output', () => {
  const schema = z.object({ city: z.string() });

  it('accepts JSON, fenced or not, that matches the schema', async () => {
    expect(await checkOutput(schema, '{"city":"Oslo"}')).toEqual({ ok: true, value: { city: 'Oslo' } });
    expect(await checkOutput(schema, '```json\n{"city":"Lima"}\n```')).toEqual({ ok: true, value: { city: 'Lima' } });
  });

  it('says why a reply is not the output: not JSON, or the issues with the schema', async () => {
    expect(await checkOutput(schema, 'Oslo')).toMatchObject({ ok: false, error: { message: 'The reply is not valid JSON' } });
    const wrong = await checkOutput(schema, '{"city":3}');
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.error.issues[0]?.path).toBe('city');
    expect(repairMessage(wrong.error)).toMatchObject({ role: 'user', metadata: { outputRepair: true } });
    expect(repairMessage(wrong.error).content).toContain(wrong.error.message);
  });
});
