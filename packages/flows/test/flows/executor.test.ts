import { memoryStore, type AgentStreamEvent } from '@lousho/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FlowBuilder, FlowExecutor, FlowNodeError } from '../../src/index.js';
import { collect, deferred, lookupOrder, passOfEvent, scriptedAgent } from './helpers.js';

const flowEvents = (events: AgentStreamEvent[]) => events.filter((e) => e.type.startsWith('flow.') && e.type !== 'flow.node.event');

describe('agent nodes', () => {
  it('run the agent on the filled template; the reply text is the output; its events are nested in the flow stream', async () => {
    const agent = scriptedAgent((prompt) => `echo: ${prompt}`);
    const flow = FlowBuilder.create<{ message: string }>('echo').agent('answer', { agent, input: 'Say {{input.message}}' }).build();
    const run = FlowExecutor.stream(flow, { message: 'hi' });
    const events = await collect(run);
    const result = await run.result;
    expect(result.outputs.answer).toBe('echo: Say hi');
    expect(result.finishReason).toBe('stop');
    expect(events[0]!.type).toBe('run.start');
    expect(events.at(-1)!.type).toBe('run.done');
    const nested = events.filter((e): e is Extract<AgentStreamEvent, { type: 'flow.node.event' }> => e.type === 'flow.node.event');
    expect(nested.map((e) => e.event.type)).toEqual(expect.arrayContaining(['run.start', 'user.message', 'step.start', 'text.delta', 'step.done', 'run.done']));
    for (const e of nested) {
      expect(passOfEvent(e)).toBe('answer');
      expect(e.event).not.toHaveProperty('seq');
      expect(e.event).not.toHaveProperty('runId');
    }
    // Every event of the flow is numbered once, in order.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('with `output`, the agent is told the schema and its JSON reply is parsed and checked', async () => {
    const agent = scriptedAgent((prompt) => (prompt.includes('JSON Schema') ? '```json\n{"category":"refund","urgent":true}\n```' : 'prose'));
    const flow = FlowBuilder.create<string>('classify')
      .agent('classify', { agent, input: 'Classify {{input}}', output: z.object({ category: z.enum(['refund', 'other']), urgent: z.boolean() }) })
      .build();
    const result = await FlowExecutor.run(flow, 'my parcel');
    expect(result.outputs.classify).toEqual({ category: 'refund', urgent: true });
  });

  it('a reply that does not match `output` fails the flow with LOUSHO_FLOW_OUTPUT_INVALID', async () => {
    const agent = scriptedAgent(() => '{"category":"weather"}');
    const flow = FlowBuilder.create<string>('bad').agent('classify', { agent, input: '{{input}}', output: z.object({ category: z.enum(['refund', 'other']) }) }).build();
    const error = (await FlowExecutor.run(flow, 'x').catch((e: unknown) => e)) as FlowNodeError;
    expect(error).toBeInstanceOf(FlowNodeError);
    expect(error.code).toBe('LOUSHO_FLOW_OUTPUT_INVALID');
    expect(error.node).toBe('classify');
    expect(error.message).toContain("Node 'classify' failed");
  });

  it('every agent call is counted in the usage', async () => {
    const agent = scriptedAgent((p) => `reply to ${p}`);
    const flow = FlowBuilder.create<string>('usage')
      .agent('a', { agent, input: 'one {{input}}' })
      .parallel('fan', { branches: { x: { agent, input: 'two' }, y: { agent, input: 'three' } } })
      .agent('b', { agent, input: 'four' })
      .build();
    const result = await FlowExecutor.run(flow, 'go');
    expect(result.usage.modelCalls).toBe(4);
    expect(result.usage.delegated?.runs).toBe(4);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
  });
});

describe('tool, function and evaluator nodes', () => {
  it('a tool node fills its argument templates; a template that is one placeholder keeps the value type', async () => {
    const flow = FlowBuilder.create<{ order: { id: number } }>('tools')
      .tool('order', { tool: lookupOrder, args: { orderId: '{{input.order.id}}', note: 'asked about #{{input.order.id}}' } })
      .step('summary', (vars) => `${vars.order.orderId}: ${vars.order.status}`)
      .build();
    const result = await FlowExecutor.run(flow, { order: { id: 142 } });
    expect(result.outputs.order).toEqual({ orderId: 142, status: 'shipped', note: 'asked about #142' });
    expect(result.outputs.summary).toBe('142: shipped');
  });

  it('tool arguments are checked against the tool schema', async () => {
    const flow = FlowBuilder.create<{ id: string }>('tools').tool('order', { tool: lookupOrder, args: { orderId: '{{input.id}}' } }).build();
    const error = (await FlowExecutor.run(flow, { id: 'not a number' }).catch((e: unknown) => e)) as FlowNodeError;
    expect(error.code).toBe('LOUSHO_INVALID_TOOL_ARGUMENTS');
    expect(error.node).toBe('order');
  });

  it('an evaluator outputs the value of its expression', async () => {
    const flow = FlowBuilder.create<{ score: number }>('grade')
      .step('double', (vars) => vars.input.score * 2)
      .evaluator('passed', { expression: '{{double}} >= 90 && input.score < 100' })
      .build();
    expect((await FlowExecutor.run(flow, { score: 46 })).outputs.passed).toBe(true);
    expect((await FlowExecutor.run(flow, { score: 40 })).outputs.passed).toBe(false);
  });

  it('an evaluator that cannot be evaluated fails the flow with "Failed to evaluate expression: ..." and the ExpressionError', async () => {
    const flow = FlowBuilder.create<{ score?: number }>('grade').step('start', () => null).evaluator('passed', { expression: '{{start}} >= 90' }).build();
    const run = FlowExecutor.stream(flow, {});
    const events = await collect(run);
    const error = (await run.result.catch((e: unknown) => e)) as FlowNodeError;
    expect(error).toBeInstanceOf(FlowNodeError);
    expect(error.code).toBe('LOUSHO_FLOW_EXPRESSION_FAILED');
    expect(error.message).toMatch(/^Failed to evaluate expression: Unexpected '>=' .*at position 10 in expression "\{\{start\}\} >= 90"/);
    expect((error.cause as Error).name).toBe('ExpressionError');
    expect(events.map((e) => e.type).slice(-2)).toEqual(['flow.node.error', 'error']);
    const last = events.at(-1) as Extract<AgentStreamEvent, { type: 'error' }>;
    expect(last.error.code).toBe('LOUSHO_FLOW_EXPRESSION_FAILED');
    expect(last.error.message).not.toContain('    at ');
  });
});

describe('oneOf', () => {
  const build = () =>
    FlowBuilder.create<{ text: string; score?: number }>('route')
      .step('classify', (vars) => (vars.input.text.includes('refund') ? 'refund' : vars.input.text.includes('bug') ? 'bug' : 'other'))
      .oneOf('route', {
        branches: [
          { when: '{{input.score}} > 5', then: 'urgent' },
          { when: "'{{classify}}' === 'refund'", then: 'refund' },
          { when: (vars) => vars.classify === 'bug', then: 'bug' },
        ],
        otherwise: 'general',
      })
      .step('urgent', () => 'urgent', { after: 'route' })
      .step('refund', () => 'refund team', { after: 'route' })
      .step('bug', () => 'engineering', { after: 'route' })
      .step('general', () => 'front desk', { after: 'route' })
      .step('reply', (vars) => `handled by ${vars.urgent ?? vars.refund ?? vars.bug ?? vars.general}`, { after: { any: ['urgent', 'refund', 'bug', 'general'] } })
      .build();

  it('the first branch whose condition holds runs; the others are skipped; an any-join runs after it', async () => {
    const run = FlowExecutor.stream(build(), { text: 'I want a refund' });
    const events = await collect(run);
    const result = await run.result;
    expect(result.outputs.route).toBe('refund');
    expect(result.path).toEqual(['classify', 'route', 'refund', 'reply']);
    expect(result.outputs.reply).toBe('handled by refund team');
    expect(result.outputs).not.toHaveProperty('general');
    const branch = events.find((e) => e.type === 'flow.branch')!;
    expect(branch).toMatchObject({ toolName: 'route', branch: 'refund' });
    expect(passOfEvent(branch)).toBe('route');
  });

  it('a condition that cannot be evaluated counts as not matched', async () => {
    // No score: `{{input.score}} > 5` is a syntax error, so it does not match.
    expect((await FlowExecutor.run(build(), { text: 'refund please' })).outputs.route).toBe('refund');
    expect((await FlowExecutor.run(build(), { text: 'refund please', score: 9 })).outputs.route).toBe('urgent');
  });

  it('function conditions, and `otherwise`', async () => {
    expect((await FlowExecutor.run(build(), { text: 'a bug' })).outputs.reply).toBe('handled by engineering');
    expect((await FlowExecutor.run(build(), { text: 'hello' })).path).toEqual(['classify', 'route', 'general', 'reply']);
  });

  it('no match and no otherwise: null, and every branch is skipped', async () => {
    const flow = FlowBuilder.create<number>('none')
      .oneOf('route', { branches: [{ when: 'input > 10', then: 'big' }] })
      .step('big', () => 'big', { after: 'route' })
      .step('after', () => 'after', { after: 'big' })
      .build();
    const result = await FlowExecutor.run(flow, 1);
    expect(result.outputs.route).toBeNull();
    expect(result.path).toEqual(['route']);
  });
});

describe('scheduling', () => {
  it('nodes start as soon as what they run after is done, independent ones at once', async () => {
    const slow = deferred<string>();
    const started: string[] = [];
    const flow = FlowBuilder.create('fan')
      .step('slow', () => (started.push('slow'), slow.promise), { after: [] })
      .step('fast', () => (started.push('fast'), 'fast'), { after: [] })
      .step('afterFast', (vars) => (started.push('afterFast'), `${vars.fast}!`), { after: 'fast' })
      .step('join', (vars) => `${vars.slow}+${vars.afterFast}`, { after: ['slow', 'afterFast'] })
      .build();
    const run = FlowExecutor.stream(flow, null);
    const events: AgentStreamEvent[] = [];
    const reading = (async () => {
      for await (const event of run) {
        events.push(event);
        // `afterFast` finished while `slow` still runs: now let `slow` end.
        if (event.type === 'flow.node.done' && event.toolName === 'afterFast') slow.resolve('slow');
      }
    })();
    const result = await run.result;
    await reading;
    expect(started).toEqual(['slow', 'fast', 'afterFast']);
    expect(result.path).toEqual(['fast', 'afterFast', 'slow', 'join']);
    expect(result.outputs.join).toBe('slow+fast!');
  });

  it('`concurrency` caps the nodes running at once', async () => {
    let running = 0;
    let most = 0;
    const work = async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return 1;
    };
    let builder = FlowBuilder.create('many') as any;
    for (let i = 0; i < 6; i++) builder = builder.step(`n${i}`, work, { after: [] });
    const flow = builder.build();
    await FlowExecutor.run(flow, null, { concurrency: 2 });
    expect(most).toBe(2);
    most = 0;
    await FlowExecutor.run(flow, null);
    expect(most).toBe(6);
  });

  it('the variables a node sees: the input and the outputs of the nodes it runs after', async () => {
    let seen: Record<string, unknown> = {};
    const flow = FlowBuilder.create<number>('vars')
      .step('a', () => 'A', { after: [] })
      .step('b', () => 'B', { after: [] })
      .step('c', (vars) => ((seen = { ...vars }), 'C'), { after: 'a' })
      .build();
    await FlowExecutor.run(flow, 7, { concurrency: 1 });
    expect(seen).toEqual({ input: 7, a: 'A' });
  });
});

describe('parallel', () => {
  it('fans out over branches and joins with their outputs by name; each branch is a node pass of its own', async () => {
    const agent = scriptedAgent((p) => `agent says ${p}`);
    const flow = FlowBuilder.create<{ q: string }>('research')
      .parallel('research', {
        branches: {
          web: { run: async (vars) => `web results for ${vars.input.q}` },
          model: { agent, input: 'think about {{input.q}}' },
          order: { tool: lookupOrder, args: { orderId: 7 } },
        },
      })
      .step('merge', (vars) => [vars.research.web, vars.research.model, vars.research.order.status].join(' | '))
      .build();
    const run = FlowExecutor.stream(flow, { q: 'cats' });
    const events = await collect(run);
    const result = await run.result;
    expect(result.outputs.merge).toBe('web results for cats | agent says think about cats | pending');
    const starts = flowEvents(events).filter((e) => e.type === 'flow.node.start');
    expect(starts.map(passOfEvent)).toEqual(['research', 'research/web', 'research/model', 'research/order', 'merge']);
  });

  it('forEach runs `each` per item (with {{item}} and {{index}}) at most `concurrency` at once, outputs in item order', async () => {
    let running = 0;
    let most = 0;
    const flow = FlowBuilder.create<{ words: string[] }>('map')
      .parallel('lengths', {
        forEach: (vars) => vars.input.words,
        each: {
          run: async (vars) => {
            most = Math.max(most, ++running);
            await new Promise((r) => setTimeout(r, 20 - vars.index * 4));
            running--;
            return `${vars.index}:${vars.item.length}`;
          },
        },
        concurrency: 2,
      })
      .build();
    const result = await FlowExecutor.run(flow, { words: ['a', 'bb', 'ccc', 'dddd', 'eeeee'] });
    expect(result.outputs.lengths).toEqual(['0:1', '1:2', '2:3', '3:4', '4:5']);
    expect(most).toBe(2);
  });

  it('a failing branch fails the node (and the flow), and stops the other branches', async () => {
    let stopped = false;
    const flow = FlowBuilder.create('fail')
      .parallel('p', {
        branches: {
          bad: { run: async () => Promise.reject(new Error('boom')) },
          slow: {
            run: (_vars, ctx) =>
              new Promise((resolve) => {
                ctx.signal.addEventListener('abort', () => ((stopped = true), resolve('stopped')));
              }),
          },
        },
      })
      .build();
    const error = (await FlowExecutor.run(flow, null).catch((e: unknown) => e)) as FlowNodeError;
    expect(error.node).toBe('p');
    expect(error.message).toBe("Node 'p' failed: Error: boom");
    expect(stopped).toBe(true);
  });
});

describe('approval nodes', () => {
  const build = () =>
    FlowBuilder.create<{ to: string }>('mail')
      .step('draft', (vars) => `Hello ${vars.input.to}`)
      .approval('review', { title: 'Send to {{input.to}}?', data: '{{draft}}' })
      .step('send', (vars) => `sent: ${vars.draft} (${vars.review.note ?? 'no note'})`)
      .build();

  it('pause the flow like an agent approval; resolving runs the flow on', async () => {
    const store = memoryStore();
    const flow = build();
    const run = FlowExecutor.stream(flow, { to: 'Ada' }, { sessionId: 'mail-1', store });
    const events = await collect(run);
    const paused = await run.result;
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.path).toEqual(['draft']);
    expect(paused.pendingApproval).toMatchObject({ toolCallId: `${paused.runId}:review`, toolName: 'review', displayName: 'Send to Ada?', args: 'Hello Ada', kind: 'tool' });
    expect(events.slice(-2).map((e) => e.type)).toEqual(['approval.requested', 'run.done']);
    expect(await FlowExecutor.approvals(flow, { store, sessionId: 'mail-1' })).toHaveLength(1);

    // The session waits: a new run is refused until the approval is decided.
    await expect(FlowExecutor.run(flow, { to: 'Bob' }, { sessionId: 'mail-1', store })).rejects.toMatchObject({ code: 'LOUSHO_SESSION_AWAITING_APPROVAL' });

    const continued = await FlowExecutor.resolveStream(flow, { approvalId: paused.approvalId!, approved: true, note: 'fine' }, { store });
    const more = await collect(continued);
    const done = await continued.result;
    expect(done.finishReason).toBe('stop');
    expect(done.runId).toBe(paused.runId);
    expect(done.outputs.send).toBe('sent: Hello Ada (fine)');
    expect(done.path).toEqual(['draft', 'review', 'send']);
    expect(more[0]).toMatchObject({ type: 'run.start', continuation: true });
    expect(more[1]).toMatchObject({ type: 'approval.resolved', approvalId: paused.approvalId, toolCallId: `${paused.runId}:review`, approved: true, note: 'fine' });
    // The event numbers go on from the paused leg's.
    expect(more[0]!.seq).toBe(events.at(-1)!.seq + 1);
    await expect(FlowExecutor.resolve(flow, { approvalId: paused.approvalId!, approved: true }, { store })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_PENDING' });
  });

  it('a rejection skips the nodes after the approval, unless onReject is continue', async () => {
    const store = memoryStore();
    const flow = build();
    const paused = await FlowExecutor.run(flow, { to: 'Ada' }, { store });
    const done = await FlowExecutor.resolve(flow, { approvalId: paused.approvalId!, approved: false, note: 'no' }, { store });
    expect(done.finishReason).toBe('stop');
    expect(done.outputs.review).toEqual({ approved: false, note: 'no' });
    expect(done.path).toEqual(['draft', 'review']);

    const lenient = FlowBuilder.create('lenient')
      .approval('ok', { onReject: 'continue' })
      .step('after', (vars) => (vars.ok.approved ? 'go' : 'stopped politely'))
      .build();
    const waiting = await FlowExecutor.run(lenient, null, { store });
    expect((await FlowExecutor.resolve(lenient, { approvalId: waiting.approvalId!, approved: false }, { store })).outputs.after).toBe('stopped politely');
  });

  it('a run stopped while an approval node waits closes that approval: nobody is asked about a run that is over', async () => {
    const store = memoryStore();
    const controller = new AbortController();
    const flow = FlowBuilder.create('busy')
      .approval('ok', { after: [] })
      .step('slow', (_vars, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(Object.assign(new Error('stopped'), { name: 'AbortError' })))), { after: [] })
      .build();
    const run = FlowExecutor.stream(flow, null, { store, signal: controller.signal, sessionId: 'stop-wait' });
    for await (const event of run) if (event.type === 'flow.node.start' && event.toolName === 'slow') setTimeout(() => controller.abort(), 10);
    expect((await run.result).finishReason).toBe('aborted');
    expect(await FlowExecutor.approvals(flow, { store, sessionId: 'stop-wait' })).toEqual([]);
    const [closed] = await store.approvals.list({ sessionId: 'stop-wait' });
    expect(closed).toMatchObject({ status: 'resolved', decision: { approved: false } });
  });

  it('an unknown approval id', async () => {
    await expect(FlowExecutor.resolve(build(), { approvalId: 'nope', approved: true }, { store: memoryStore() })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_FOUND' });
  });
});

describe('loops', () => {
  it('go round from `to` while the condition holds, the body seeing its previous pass', async () => {
    const drafts: string[] = [];
    const flow = FlowBuilder.create<{ target: number }>('refine')
      .step('draft', (vars) => {
        const previous = (vars as Record<string, unknown>).review as { score: number } | undefined;
        const text = `draft ${previous ? previous.score + 1 : 1}`;
        drafts.push(text);
        return text;
      })
      .step('review', (vars) => ({ score: Number(vars.draft.split(' ')[1]) }))
      .loop('again', { to: 'draft', while: '{{review.score}} < {{input.target}}', max: 10 })
      .step('publish', (vars) => `published ${vars.draft} after ${vars.again.iterations} passes`)
      .build();
    const run = FlowExecutor.stream(flow, { target: 3 });
    const events = await collect(run);
    const result = await run.result;
    expect(drafts).toEqual(['draft 1', 'draft 2', 'draft 3']);
    expect(result.outputs.publish).toBe('published draft 3 after 3 passes');
    expect(result.outputs.again).toEqual({ iterations: 3, exhausted: false });
    expect(result.path).toEqual(['draft', 'review', 'again', 'draft', 'review', 'again', 'draft', 'review', 'again', 'publish']);
    const ids = flowEvents(events).filter((e) => e.type === 'flow.node.start').map(passOfEvent);
    expect(ids).toEqual(['draft', 'review', 'again', 'draft#2', 'review#2', 'again#2', 'draft#3', 'review#3', 'again#3', 'publish']);
  });

  it('stop at `max` passes, saying so', async () => {
    let passes = 0;
    const flow = FlowBuilder.create('forever')
      .step('work', () => ++passes)
      .loop('again', { to: 'work', while: 'true', max: 4 })
      .build();
    const result = await FlowExecutor.run(flow, null);
    expect(passes).toBe(4);
    expect(result.outputs.again).toEqual({ iterations: 4, exhausted: true });
  });
});

describe('stopping and failing', () => {
  it('an aborted signal stops the run: running nodes see it, the run resolves with aborted', async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const flow = FlowBuilder.create('stop')
      .step('first', () => 'first')
      .step('wait', (_vars, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => ((sawAbort = true), reject(Object.assign(new Error('stopped'), { name: 'AbortError' }))))))
      .step('never', () => 'never')
      .build();
    const run = FlowExecutor.stream(flow, null, { signal: controller.signal });
    const events: AgentStreamEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === 'flow.node.start' && event.toolName === 'wait') controller.abort();
    }
    const result = await run.result;
    expect(result.finishReason).toBe('aborted');
    expect(result.path).toEqual(['first']);
    expect(sawAbort).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'aborted' });
  });

  it('a node that throws fails the flow with a FlowNodeError naming it; no stack reaches the stream', async () => {
    const flow = FlowBuilder.create('boom')
      .step('ok', () => 1)
      .step('bad', () => {
        throw new TypeError('cannot read x');
      })
      .build();
    const run = FlowExecutor.stream(flow, null);
    const events = await collect(run);
    const error = (await run.result.catch((e: unknown) => e)) as FlowNodeError;
    expect(error).toBeInstanceOf(FlowNodeError);
    expect(error.code).toBe('LOUSHO_FLOW_NODE_FAILED');
    expect(error.node).toBe('bad');
    expect(error.message).toBe("Node 'bad' failed: TypeError: cannot read x");
    expect((error.cause as Error).message).toBe('cannot read x');
    expect(events.at(-2)).toMatchObject({ type: 'flow.node.error', toolName: 'bad', error: { code: 'LOUSHO_FLOW_NODE_FAILED' } });
    expect(passOfEvent(events.at(-2)!)).toBe('bad');
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'LOUSHO_FLOW_NODE_FAILED', message: "Node 'bad' failed: TypeError: cannot read x" } });
  });

  it('an input schema checks every input before anything runs', async () => {
    const flow = FlowBuilder.create('typed', { input: z.object({ email: z.string().email() }) })
      .step('greet', (vars) => `hi ${vars.input.email}`)
      .build();
    await expect(FlowExecutor.run(flow, { email: 'nope' })).rejects.toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
    expect((await FlowExecutor.run(flow, { email: 'ada@example.com' })).outputs.greet).toBe('hi ada@example.com');
  });
});
