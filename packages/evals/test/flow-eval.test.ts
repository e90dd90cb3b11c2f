import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { FlowBuilder } from '@lousho/flows';
import { budget, defineEval, exactMatch, includes, runEval, toolCallOrder } from '../src/index.js';

/** A classifier agent that looks the order up (a tool call) and answers with the category. */
function triageFlow() {
  const lookups: string[] = [];
  const lookupOrder = defineTool({
    name: 'lookup_order',
    description: 'Finds an order.',
    input: z.object({ id: z.string() }),
    execute: ({ id }) => {
      lookups.push(id);
      return { id, paid: true };
    },
  });
  const classifier = createAgent({
    provider: mockModel(
      [
        (req) => {
          const last = req.messages.at(-1)!;
          // After the lookup: the category; a refund asks for the lookup first.
          if (last.role === 'tool') return { text: 'refund', usage: { promptTokens: 7, completionTokens: 1 } };
          return String(last.content).includes('refund') ? { toolCalls: [{ name: 'lookup_order', args: { id: 'A-1' } }], usage: { promptTokens: 5, completionTokens: 2 } } : { text: 'question', usage: { promptTokens: 5, completionTokens: 1 } };
        },
      ],
      { whenExhausted: 'repeat-last' },
    ),
    tools: [lookupOrder],
  });
  const notify = defineTool({ name: 'notify', description: 'Sends a note.', input: z.object({ text: z.string() }), execute: ({ text }) => `sent: ${text}` });
  const flow = FlowBuilder.create<string>('triage')
    .agent('classify', { agent: classifier, input: 'Classify: {{input}}' })
    .oneOf('route', { branches: [{ when: "classify === 'refund'", then: 'refund' }], otherwise: 'answer' })
    .tool('refund', { tool: notify, args: { text: 'Refund for {{input}}' }, after: 'route' })
    .step('answer', () => 'We will get back to you.', { after: 'route' })
    .build();
  return { flow, lookups };
}

describe('defineEval({ flow }) runs the flow for every case', () => {
  it('scores the last node’s output as the reply, every node’s output as the object, and the calls of tool nodes and agents', async () => {
    const { flow, lookups } = triageFlow();
    const ev = defineEval({
      name: 'triage',
      flow,
      cases: [
        { name: 'refund', input: 'a refund please', expected: 'sent: Refund for a refund please' },
        { name: 'question', input: 'where is it?', expected: 'We will get back to you.' },
      ],
      scorers: [exactMatch(), toolCallOrder(['lookup_order', 'notify']), budget({ maxSteps: 4 })],
      checks: [includes('sent', { name: 'sent a note' })],
    });
    const report = await runEval(ev);
    const [refund, question] = report.cases;
    expect(refund!.scores.exactMatch!.score).toBe(1);
    expect(refund!.scores.toolCallOrder!.score).toBe(1);
    expect(refund!.runs[0]!.output).toMatchObject({ toolCalls: ['lookup_order', 'notify'], finishReason: 'stop', steps: 3 });
    expect(refund!.passed).toBe(true);
    expect(question!.scores.exactMatch!.score).toBe(1);
    // No call made: the longest common subsequence is empty.
    expect(question!.scores.toolCallOrder!.score).toBe(0);
    expect(question!.passed).toBe(false);
    expect(question!.checks['sent a note']!.reason).toMatch(/lacks "sent"/);
    expect(lookups).toEqual(['A-1']);
    // Every agent call of the flow counts into the runs' usage.
    expect(report.usage.runs.modelCalls).toBe(3);
    expect(report.usage.runs.inputTokens).toBeGreaterThan(0);
  });

  it('compares a structured expected value with every node’s output', async () => {
    const flow = FlowBuilder.create<number>('double')
      .step('double', (vars) => vars.input * 2)
      .evaluator('big', { expression: 'double > 5' })
      .build();
    const report = await runEval(defineEval({ name: 'double', flow, cases: [{ input: 3, expected: { double: 6, big: true } }, { input: 1, expected: { double: 2, big: true } }], scorers: [exactMatch()] }));
    expect(report.cases.map((c) => c.score)).toEqual([1, 0]);
    // The last node's value is the reply text, as JSON.
    expect(report.cases[1]!.runs[0]!.output!.text).toBe('false');
  });

  it('a node that fails fails the run with its code, and a slow flow times out', async () => {
    const failing = FlowBuilder.create<string>('fails')
      .step('boom', () => {
        throw new Error('no stock');
      })
      .build();
    const failed = await runEval(defineEval({ name: 'fails', flow: failing, cases: [{ input: 'x' }], checks: [includes('x')] }));
    expect(failed.passed).toBe(false);
    expect(failed.cases[0]!.runs[0]!.error).toMatchObject({ code: 'LOUSHO_FLOW_NODE_FAILED' });
    expect(failed.cases[0]!.runs[0]!.error!.message).toMatch(/no stock/);

    const slow = FlowBuilder.create<string>('slow')
      .step('wait', (_vars, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped'), { once: true })))
      .build();
    const timedOut = await runEval(defineEval({ name: 'slow', flow: slow, cases: [{ input: 'x' }], checks: [includes('x')], timeoutMs: 50 }));
    expect(timedOut.cases[0]!.runs[0]!.error).toMatchObject({ code: 'LOUSHO_EVAL_TIMEOUT' });
  });

  it('refuses something that is not a built flow', () => {
    expect(() => defineEval({ name: 'x', flow: { steps: [] } as never, cases: [{ input: 'a' }], checks: [includes('a')] })).toThrow(/must be a flow made by FlowBuilder/);
  });
});
