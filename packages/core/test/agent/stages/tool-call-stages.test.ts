import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool.js';
import type { ToolCall } from '@lousho/protocol';
import type { AgentHook } from '@lousho/protocol';
import { normalizeGuardrails } from '../../../src/guardrails/run-guardrails.js';
import { executeCall, prepareCall } from '../../../src/agent/call-stages.js';
import { validateCall } from '../../../src/agent/stages/validate-call.js';
import { runPreHooks } from '../../../src/agent/stages/pre-hooks.js';
import { matchPermission, permissionDenied } from '../../../src/agent/stages/permissions.js';
import { approvalStage } from '../../../src/agent/stages/needs-approval.js';
import { executeStage } from '../../../src/agent/stages/execute-call.js';
import { runPostHooks } from '../../../src/agent/stages/post-hooks.js';
import { executionContext, hookContext, lazyMessages } from '../../../src/agent/call-context.js';
import type { CallScope, PreparedCall } from '../../../src/agent/tool-call.js';
import { stageFixture } from './fixture.js';

const call = (args: unknown, name = 'add'): ToolCall => ({ id: 'call_1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

function addTool(extra: Partial<Parameters<typeof defineTool>[0]> = {}) {
  return defineTool({
    name: 'add',
    description: 'Adds two numbers',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }: { a: number; b: number }) => a + b,
    ...extra,
  } as Parameters<typeof defineTool>[0]);
}

/** The call as the stages before `needsApproval` leave it: ready to run. */
function runnable(scope: CallScope, args: { a: number; b: number }): Extract<PreparedCall, { kind: 'run' }> {
  const c = call(args);
  const messages = lazyMessages(scope);
  return { kind: 'run', call: c, tool: scope.deps.tools.get('add')!, args, ctx: executionContext(scope, c, messages), hookCtx: hookContext(scope, c, args, messages) };
}

describe('stage: validate', () => {
  it('announces the call, then refuses an unknown tool with a not-found result naming the available ones', async () => {
    const f = stageFixture({ tools: [addTool()] });
    const out = await validateCall(f.scope, call({ a: 1 }, 'nope'));
    expect(f.events.map((e) => e.type)).toEqual(['tool.call']);
    expect(out.kind).toBe('done');
    const outcome = (out as Extract<PreparedCall, { kind: 'done' }>).outcome;
    expect(outcome.error).toMatchObject({ kind: 'not-found' });
    expect(outcome.error?.message).toContain('add');
  });

  it('gives invalid arguments a validation result, keeping what the model wrote as the args', async () => {
    const f = stageFixture({ tools: [addTool()] });
    const out = await validateCall(f.scope, call({ a: 'one', b: 2 }));
    expect(out).toMatchObject({ kind: 'done', outcome: { isError: true, args: { a: 'one', b: 2 }, error: { kind: 'validation' } } });
  });

  it('passes a valid call on with its parsed arguments in the hooks context', async () => {
    const f = stageFixture({ tools: [addTool()] });
    const out = await validateCall(f.scope, call({ a: 1, b: 2 }));
    expect(out.kind).toBe('valid');
    expect(out.hookCtx?.args).toEqual({ a: 1, b: 2 });
    expect(out.hookCtx).toMatchObject({ toolName: 'add', toolCallId: 'call_1', runId: 'run_1', sessionId: 'sess_1' });
  });
});

describe('stage: pre-hooks', () => {
  const prepared = async (hooks: AgentHook[]) => {
    const f = stageFixture({ tools: [addTool()], hooks });
    const valid = await validateCall(f.scope, call({ a: 1, b: 2 }));
    if (valid.kind !== 'valid') throw new Error('expected a valid call');
    return { f, valid };
  };

  it('the first deny ends the chain: a denied result, reported with the hook name', async () => {
    const later: string[] = [];
    const { f, valid } = await prepared([
      { name: 'guard', preToolCall: () => ({ deny: 'not today' }) },
      { name: 'later', preToolCall: () => void later.push('ran') },
    ]);
    const out = await runPreHooks(f.scope, valid.tool, valid.hookCtx, undefined);
    expect(out).toMatchObject({ kind: 'done', outcome: { isError: true, error: { kind: 'denied', message: 'not today', reason: 'not today' } } });
    expect(later).toEqual([]);
    expect(f.decisions).toEqual([expect.objectContaining({ decision: 'deny', reason: 'not today', hook: 'guard' })]);
  });

  it('a result replaces the call, named after its hook', async () => {
    const { f, valid } = await prepared([{ name: 'cache', preToolCall: () => ({ result: 42 }) }]);
    expect(await runPreHooks(f.scope, valid.tool, valid.hookCtx, undefined)).toMatchObject({ kind: 'done', outcome: { result: 42, isError: false, replacedByHook: 'cache' } });
  });

  it('inputs chain, each re-validated; an invalid one is a validation result naming the hook', async () => {
    const { f, valid } = await prepared([
      { name: 'double', preToolCall: (ctx) => ({ input: { a: (ctx.args as { a: number }).a * 2, b: 2 } }) },
      { name: 'seen', preToolCall: (ctx) => ({ input: { ...(ctx.args as object), b: 5 } }) },
    ]);
    expect(await runPreHooks(f.scope, valid.tool, valid.hookCtx, undefined)).toBeUndefined();
    expect(valid.hookCtx.args).toEqual({ a: 2, b: 5 });

    const bad = await prepared([{ name: 'broken', preToolCall: () => ({ input: { a: 'x' } }) }]);
    const out = await runPreHooks(bad.f.scope, bad.valid.tool, bad.valid.hookCtx, undefined);
    expect(out).toMatchObject({ kind: 'done', outcome: { error: { kind: 'validation' } } });
    expect((out as Extract<PreparedCall, { kind: 'done' }>).outcome.error?.message).toContain("Hook 'broken'");
  });

  it('an approved call runs only with the input a person approved', async () => {
    const { f, valid } = await prepared([{ name: 'sneaky', preToolCall: () => ({ input: { a: 9, b: 9 } }) }]);
    const out = await runPreHooks(f.scope, valid.tool, valid.hookCtx, { value: { a: 1, b: 2 } });
    expect((out as Extract<PreparedCall, { kind: 'done' }>).outcome.error?.message).toContain("Hook 'sneaky' changed the input of an approved call");
  });
});

describe('stage: permissions', () => {
  it('the first matching rule wins: names, globs, lists, RegExps and functions of the arguments', () => {
    const rules = [
      { tool: (name: string, args: unknown) => name === 'fs_write' && (args as { path: string }).path.startsWith('/etc'), decision: 'deny' as const, reason: 'system files' },
      { tool: 'fs_*', decision: 'allow' as const },
      { tool: /^shell$/, decision: 'ask' as const },
      { tool: ['a', 'b'], decision: 'deny' as const },
    ];
    expect(matchPermission(rules, 'fs_write', { path: '/etc/passwd' })?.reason).toBe('system files');
    expect(matchPermission(rules, 'fs_write', { path: '/tmp/x' })?.decision).toBe('allow');
    expect(matchPermission(rules, 'shell', {})?.decision).toBe('ask');
    expect(matchPermission(rules, 'b', {})?.decision).toBe('deny');
    expect(matchPermission(rules, 'other', {})).toBeUndefined();
  });

  it('a deny rule is the call`s denied result, with its reason, and is reported', () => {
    const f = stageFixture();
    const rule = { tool: 'add', decision: 'deny' as const, reason: 'no maths' };
    const c = call({ a: 1, b: 2 });
    const out = permissionDenied(f.deps, c, { a: 1, b: 2 }, rule, hookContext(f.scope, c, {}, lazyMessages(f.scope)));
    expect(out).toMatchObject({ kind: 'done', outcome: { error: { kind: 'denied', message: 'no maths', reason: 'no maths' } } });
    expect(f.decisions).toEqual([expect.objectContaining({ decision: 'deny', reason: 'no maths', rule })]);
  });
});

describe('stage: needsApproval → pause', () => {
  it('a call that needs approval pauses with what a person needs to decide it', async () => {
    const f = stageFixture({ tools: [addTool({ needsApproval: true, displayName: 'Add' })] });
    const out = await approvalStage(f.scope, runnable(f.scope, { a: 1, b: 2 }), undefined);
    expect(out).toMatchObject({ kind: 'pause', approval: { toolCallId: 'call_1', toolName: 'add', displayName: 'Add', args: { a: 1, b: 2 }, kind: 'tool' } });
    expect((out as Extract<PreparedCall, { kind: 'pause' }>).approval.approvalId).toMatch(/^appr_/);
  });

  it('approve decides in code: true runs the call, a string rejects it with that note', async () => {
    const f = stageFixture({ tools: [addTool({ needsApproval: true })], approve: async () => 'too big' });
    const out = await approvalStage(f.scope, runnable(f.scope, { a: 1, b: 2 }), undefined);
    expect(out).toMatchObject({ kind: 'done', outcome: { error: { kind: 'rejected', note: 'too big' } } });
    const yes = stageFixture({ tools: [addTool({ needsApproval: true })], approve: async () => true });
    expect((await approvalStage(yes.scope, runnable(yes.scope, { a: 1, b: 2 }), undefined)).kind).toBe('run');
  });

  it('an allow rule skips needsApproval, an ask rule asks; the rule is reported once approval is known', async () => {
    let asked = 0;
    const f = stageFixture({ tools: [addTool({ needsApproval: () => (asked++, true) })] });
    const allow = { tool: 'add', decision: 'allow' as const };
    expect((await approvalStage(f.scope, runnable(f.scope, { a: 1, b: 2 }), allow)).kind).toBe('run');
    expect(asked).toBe(0);
    const ask = stageFixture({ tools: [addTool()] });
    expect((await approvalStage(ask.scope, runnable(ask.scope, { a: 1, b: 2 }), { tool: 'add', decision: 'ask' })).kind).toBe('pause');
    expect(f.decisions).toEqual([expect.objectContaining({ decision: 'allow' })]);
  });

  it('a needsApproval that throws is the call`s execution error, not a crash', async () => {
    const f = stageFixture({ tools: [addTool({ needsApproval: () => { throw new Error('boom'); } })] });
    expect(await approvalStage(f.scope, runnable(f.scope, { a: 1, b: 2 }), undefined)).toMatchObject({ kind: 'done', outcome: { isError: true, error: { kind: 'execution' } } });
  });
});

describe('stage: execute', () => {
  it('runs the tool with its context and returns its result', async () => {
    const f = stageFixture({ tools: [addTool()] });
    expect(await executeStage(f.scope, runnable(f.scope, { a: 2, b: 3 }))).toMatchObject({ result: 5, isError: false });
  });

  it('a throw is the call`s error result; after a stop it is cancelled', async () => {
    const boom = addTool({ execute: async () => { throw new Error('disk full'); } });
    const f = stageFixture({ tools: [boom] });
    expect(await executeStage(f.scope, runnable(f.scope, { a: 1, b: 1 }))).toMatchObject({ isError: true, error: { kind: 'execution' } });
    const controller = new AbortController();
    controller.abort();
    const stopped = stageFixture({ tools: [boom], signal: controller.signal });
    expect(await executeStage(stopped.scope, runnable(stopped.scope, { a: 1, b: 1 }))).toMatchObject({ isError: true, error: { kind: 'cancelled' } });
  });

  it('a result that does not match the outputSchema is an output-validation error', async () => {
    const f = stageFixture({ tools: [addTool({ outputSchema: z.string() })] });
    expect(await executeStage(f.scope, runnable(f.scope, { a: 1, b: 1 }))).toMatchObject({ isError: true, error: { kind: 'output-validation' } });
  });

  it('a tool that requires a sandbox is refused, never run, when the agent has none', async () => {
    let ran = false;
    const f = stageFixture({ tools: [addTool({ requiresSandbox: true, sandboxExecute: async () => { ran = true; return 0; } })] });
    const out = await executeStage(f.scope, runnable(f.scope, { a: 1, b: 1 }));
    expect(out).toMatchObject({ isError: true, error: { kind: 'sandbox' } });
    expect(ran).toBe(false);
  });
});

describe('stage: post-hooks', () => {
  it('see every outcome and may replace the result; a call without a hooks context skips them', async () => {
    const seen: unknown[] = [];
    const f = stageFixture({ hooks: [{ name: 'redact', postToolCall: (_ctx, view) => (seen.push(view), { result: 'redacted' }) }] });
    const c = call({ a: 1, b: 2 });
    const outcome = { call: c, args: {}, result: 'secret', isError: false };
    const hookCtx = hookContext(f.scope, c, {}, lazyMessages(f.scope));
    expect(await runPostHooks(f.scope, { hookCtx }, outcome)).toMatchObject({ result: 'redacted' });
    expect(seen).toEqual([{ result: 'secret', isError: false }]);
    expect(await runPostHooks(f.scope, {}, outcome)).toBe(outcome);
  });
});

describe('the stages of a call, in their documented order', () => {
  it('validate → pre-hooks → permissions → tool guardrails → needsApproval: a stage that decides stops the rest', async () => {
    const order: string[] = [];
    const tool = addTool({ needsApproval: () => (order.push('needsApproval'), false) });
    const guardrails = normalizeGuardrails({ tool: [{ name: 'watch', check: () => void order.push('guardrail') }] });
    const hooks: AgentHook[] = [{ name: 'pre', preToolCall: (ctx) => void order.push(`pre-hook ${JSON.stringify(ctx.args)}`) }];
    const f = stageFixture({ tools: [tool], hooks, guardrails, permissions: [{ tool: (name) => (order.push('permissions'), name === 'never'), decision: 'deny' }] });
    const out = await prepareCall(f.scope, call({ a: 1, b: 2 }));
    expect(out.kind).toBe('run');
    expect(order).toEqual(['pre-hook {"a":1,"b":2}', 'permissions', 'guardrail', 'needsApproval']);

    order.length = 0;
    const denied = stageFixture({ tools: [tool], hooks, guardrails, permissions: [{ tool: 'add', decision: 'deny' }] });
    expect((await prepareCall(denied.scope, call({ a: 1, b: 2 }))).kind).toBe('done');
    expect(order).toEqual(['pre-hook {"a":1,"b":2}']);
  });

  it('a call that runs: execute, then post-hooks on its result', async () => {
    const f = stageFixture({ tools: [addTool()], hooks: [{ name: 'twice', postToolCall: (_ctx, view) => ({ result: (view.result as number) * 2 }) }] });
    const prepared = await prepareCall(f.scope, call({ a: 2, b: 3 }));
    if (prepared.kind !== 'run') throw new Error('expected the call to run');
    expect(await executeCall(f.scope, prepared)).toMatchObject({ result: 10, isError: false });
  });
});
