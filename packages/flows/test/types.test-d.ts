import { createAgent, defineTool } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { FlowBuilder, FlowExecutor, type FlowApprovalOutput, type FlowResult, type FlowLoopOutput } from '../src/index.js';

const writer = createAgent({ provider: mockModel(['x']) });
const classifier = createAgent({ provider: mockModel(['{}']), output: z.object({ label: z.enum(['refund', 'other']) }) });
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks an order up',
  input: z.object({ id: z.number(), note: z.string().optional() }),
  execute: async ({ id }) => ({ id, status: 'shipped' as const }),
});

describe('a node output type flows into the variables of the nodes after it', () => {
  it('steps, tools, agents, evaluators', () => {
    FlowBuilder.create<{ orderId: number; text: string }>('types')
      .step('parse', (vars) => {
        expectTypeOf(vars.input).toEqualTypeOf<{ orderId: number; text: string }>();
        return { words: vars.input.text.split(' ') };
      })
      .tool('order', { tool: lookup, args: { id: '{{input.orderId}}', note: 'about {{parse.words}}' } })
      .tool('order2', { tool: lookup, args: (vars) => ({ id: vars.order.id }) })
      .agent('reply', { agent: writer, input: (vars) => `Order ${vars.order.status}: ${vars.parse.words.join(' ')}` })
      .agent('label', { agent: classifier, input: '{{input.text}}' })
      .agent('parsed', { agent: writer, input: 'x', output: z.object({ score: z.number() }) })
      .evaluator('ok', { expression: '{{parsed.score}} > 1' })
      .step('check', (vars) => {
        expectTypeOf(vars.parse).toEqualTypeOf<{ words: string[] }>();
        expectTypeOf(vars.order).toEqualTypeOf<{ id: number; status: 'shipped' }>();
        expectTypeOf(vars.reply).toEqualTypeOf<string>();
        expectTypeOf(vars.label).toEqualTypeOf<{ label: 'refund' | 'other' }>();
        expectTypeOf(vars.parsed).toEqualTypeOf<{ score: number }>();
        expectTypeOf(vars.ok).toEqualTypeOf<unknown>();
        return true;
      });
  });

  it('only what a node runs after is visible; through `any`, what may not have run is optional', () => {
    FlowBuilder.create<string>('visibility')
      .step('a', () => 1)
      .step('b', () => 'b', { after: [] })
      .step('c', (vars) => {
        expectTypeOf(vars).toEqualTypeOf<{ readonly input: string; readonly b: string }>();
        return 0;
      })
      .oneOf('route', { branches: [{ when: 'b', then: 'x' }], otherwise: 'y', after: 'a' })
      .step('x', () => 'x' as const, { after: 'route' })
      .step('y', () => 2, { after: 'route' })
      .step('join', (vars) => {
        expectTypeOf(vars.route).toEqualTypeOf<'x' | 'y' | null>();
        expectTypeOf(vars.a).toEqualTypeOf<number>();
        expectTypeOf(vars.x).toEqualTypeOf<'x' | undefined>();
        expectTypeOf(vars.y).toEqualTypeOf<number | undefined>();
        // @ts-expect-error: 'c' is not something `join` runs after.
        void vars.c;
        return null;
      }, { after: { any: ['x', 'y'] } });
  });

  it('parallel, approval and loop outputs', () => {
    FlowBuilder.create<{ items: string[] }>('rest')
      .parallel('fan', { branches: { a: { run: () => 1 }, b: { agent: writer, input: 'x' }, c: { tool: lookup, args: { id: 1 } } } })
      .parallel('each', { forEach: (vars) => vars.input.items, each: { run: (vars) => vars.item.length + vars.index } })
      .approval('review', { title: (vars) => `${vars.fan.a}` })
      .loop('again', { to: 'fan', while: 'false', max: 2 })
      .step('end', (vars) => {
        expectTypeOf(vars.fan).toEqualTypeOf<{ a: number; b: string; c: { id: number; status: 'shipped' } }>();
        expectTypeOf(vars.each).toEqualTypeOf<number[]>();
        expectTypeOf(vars.review).toEqualTypeOf<FlowApprovalOutput>();
        expectTypeOf(vars.again).toEqualTypeOf<FlowLoopOutput>();
        return 1;
      });
  });

  it('mistakes the types refuse', () => {
    const b = FlowBuilder.create<number>('mistakes').step('a', () => 1);
    // @ts-expect-error: an id used twice.
    b.step('a', () => 2);
    // @ts-expect-error: 'input' names the flow's input.
    b.step('input', () => 2);
    // @ts-expect-error: after a node that does not exist.
    b.step('c', () => 2, { after: 'nope' });
    // @ts-expect-error: a plain string is neither a number nor a template.
    b.tool('t', { tool: lookup, args: { id: 'seven' } });
    // @ts-expect-error: a loop goes back to a node of the flow.
    b.loop('l', { to: 'nope', while: 'true', max: 2 });
  });
});

describe('running', () => {
  it('the input is checked and the result is typed', async () => {
    const flow = FlowBuilder.create<{ n: number }>('run')
      .step('double', (vars) => vars.input.n * 2)
      .build();
    const result = await FlowExecutor.run(flow, { n: 2 });
    expectTypeOf(result).toEqualTypeOf<FlowResult<{ double: number }>>();
    expectTypeOf(result.outputs.double).toEqualTypeOf<number | undefined>();
    expectTypeOf(result.path).toEqualTypeOf<'double'[]>();
    // @ts-expect-error: the wrong input.
    void FlowExecutor.run(flow, { n: 'two' });
  });
});
