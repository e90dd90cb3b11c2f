import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as z3 from 'zod/v3';
import { SDKError } from '@lousho/protocol';
import {
  defineTool,
  isPropagatingToolError,
  McpToolError,
  PropagatingToolError,
  SandboxRequiredError,
  ToolArgumentsValidationError,
  ToolCancelledError,
  ToolDeniedError,
  toolErrorKind,
  toolErrorResult,
  ToolNotFoundError,
  ToolNotRunError,
  ToolOutputValidationError,
  ToolRejectedError,
  validateToolArguments,
  type ToolErrorResult,
} from '../../src/tools/index.js';

const ALLOWED_KEYS = new Set(['error', 'toolName', 'message', 'kind', 'issues', 'note', 'reason']);

function expectNoStack(result: ToolErrorResult): void {
  for (const key of Object.keys(result)) expect(ALLOWED_KEYS.has(key)).toBe(true);
  const text = JSON.stringify(result);
  expect(text).not.toMatch(/\\n\s+at /);
  expect(text).not.toContain('.ts:');
  expect(text).not.toContain('stack');
}

describe('the documented error results', () => {
  test('a thrown TypeError (the docs example)', () => {
    const result = toolErrorResult({ toolName: 'search', error: new TypeError('query must not be empty') });
    expect(result).toEqual({ error: 'TypeError', toolName: 'search', message: 'query must not be empty', kind: 'execution' });
    expectNoStack(result);
  });

  test('argument validation (the docs example, with zod 3 messages)', async () => {
    const sendEmail = defineTool({
      name: 'sendEmail',
      description: 'Send an email',
      input: z3.object({ to: z3.string(), count: z3.number() }),
      execute: async () => 'sent',
    });
    const outcome = await validateToolArguments(sendEmail, '{"count":"3"}');
    expect(outcome).toEqual({
      ok: false,
      error: {
        error: 'ToolArgumentsValidationError',
        toolName: 'sendEmail',
        message: "Invalid arguments for tool 'sendEmail': 2 issues (to: Required; count: Expected number, received string)",
        kind: 'validation',
        issues: [
          { path: 'to', message: 'Required' },
          { path: 'count', message: 'Expected number, received string' },
        ],
      },
    });
  });

  test.each([
    ['validation', new ToolArgumentsValidationError('t', [{ path: 'a', message: 'Required' }]), 'ToolArgumentsValidationError', { issues: [{ path: 'a', message: 'Required' }] }],
    ['output-validation', new ToolOutputValidationError('t', [{ path: 'id', message: 'Expected string' }]), 'ToolOutputValidationError', { issues: [{ path: 'id', message: 'Expected string' }] }],
    ['not-found', new ToolNotFoundError('t', ['a', 'b']), 'ToolNotFoundError', {}],
    ['rejected', new ToolRejectedError('t', 'too expensive'), 'ToolRejectedError', { note: 'too expensive' }],
    ['not-run', new ToolNotRunError('t'), 'ToolNotRunError', {}],
    ['mcp', new McpToolError('t', 'server says no'), 'McpToolError', {}],
    ['sandbox', new SandboxRequiredError('t'), 'SandboxRequiredError', {}],
    ['denied', new ToolDeniedError('t', 'writes are off'), 'ToolDeniedError', { reason: 'writes are off' }],
    ['cancelled', new ToolCancelledError('t'), 'ToolCancelledError', {}],
  ] as const)('kind %s from its error class', (kind, error, name, extras) => {
    const result = toolErrorResult({ toolName: 't', error });
    expect(result).toEqual({ error: name, toolName: 't', message: error.message, kind, ...extras });
    expect(error).toBeInstanceOf(SDKError);
    expect(error.code).toMatch(/^LOUSHO_/);
    expectNoStack(result);
  });

  test.each([
    ['execution', 'Error'],
    ['validation', 'ToolArgumentsValidationError'],
    ['not-found', 'ToolNotFoundError'],
    ['rejected', 'ToolRejectedError'],
    ['not-run', 'ToolNotRunError'],
    ['mcp', 'McpToolError'],
    ['sandbox', 'SandboxRequiredError'],
    ['denied', 'ToolDeniedError'],
    ['cancelled', 'ToolCancelledError'],
    ['output-validation', 'ToolOutputValidationError'],
  ] as const)('kind %s from a message string uses the default name %s', (kind, name) => {
    const result = toolErrorResult({ toolName: 'x', error: 'it failed', kind });
    expect(result.error).toBe(name);
    expect(result.kind).toBe(kind);
    expect(result.message).toBe('it failed');
  });

  test('messages of the classes help the model', () => {
    expect(new ToolNotFoundError('serch', ['search', 'fetch']).message).toBe("Tool 'serch' does not exist. Available tools: search, fetch.");
    expect(new ToolNotFoundError('x', []).message).toBe("Tool 'x' does not exist. Available tools: (none).");
    expect(new ToolRejectedError('pay').message).toBe("The call to 'pay' was rejected.");
    expect(new ToolDeniedError('rm', 'no deletes').message).toBe("The call to 'rm' was denied: no deletes");
  });

  test('details add the kind extras, and only for their kind', () => {
    expect(toolErrorResult({ toolName: 'x', error: 'no', kind: 'rejected', details: { note: 'not now' } })).toEqual({
      error: 'ToolRejectedError',
      toolName: 'x',
      message: 'no',
      kind: 'rejected',
      note: 'not now',
    });
    expect(toolErrorResult({ toolName: 'x', error: 'no', kind: 'denied', details: { reason: 'policy' } }).reason).toBe('policy');
    expect(toolErrorResult({ toolName: 'x', error: 'no', kind: 'execution', details: { reason: 'policy', note: 'n' } })).toEqual({
      error: 'Error',
      toolName: 'x',
      message: 'no',
      kind: 'execution',
    });
  });

  test('validation results always list issues, even when only a message was given', () => {
    expect(toolErrorResult({ toolName: 'x', error: 'hook changed the input', kind: 'validation' }).issues).toEqual([{ path: '', message: 'hook changed the input' }]);
  });

  test('toolCallId is accepted but not part of what the model sees', () => {
    expect(toolErrorResult({ toolName: 'x', toolCallId: 'call_1', error: new Error('e') })).toEqual({ error: 'Error', toolName: 'x', message: 'e', kind: 'execution' });
  });
});

describe('toolErrorKind', () => {
  test('is the property name a thrown error carries to pick its kind', () => {
    expect(toolErrorKind).toBe('toolErrorKind');
    const err = Object.assign(new Error('read-only mode'), { [toolErrorKind]: 'denied' as const, reason: 'read-only' });
    expect(toolErrorResult({ toolName: 'write', error: err })).toEqual({ error: 'Error', toolName: 'write', message: 'read-only mode', kind: 'denied', reason: 'read-only' });
  });

  test('a custom error class can carry it too', () => {
    class QuotaError extends Error {
      readonly toolErrorKind = 'rejected';
      override name = 'QuotaError';
    }
    expect(toolErrorResult({ toolName: 'q', error: new QuotaError('quota used up') })).toMatchObject({ error: 'QuotaError', kind: 'rejected' });
  });

  test('an unknown kind value is ignored, and an explicit kind wins over the carried one', () => {
    expect(toolErrorResult({ toolName: 'x', error: Object.assign(new Error('e'), { toolErrorKind: 'weird' }) }).kind).toBe('execution');
    expect(toolErrorResult({ toolName: 'x', error: new ToolDeniedError('x'), kind: 'execution' }).kind).toBe('execution');
  });
});

describe('non-Error throws', () => {
  test.each([
    ['a string', 'disk full', 'Error', 'disk full'],
    ['an object with message and name', { name: 'HttpError', message: '404 Not Found' }, 'HttpError', '404 Not Found'],
    ['an object with message only', { message: 'bad gateway' }, 'Error', 'bad gateway'],
    ['a plain object', { status: 500, body: 'oops' }, 'Error', '{"status":500,"body":"oops"}'],
    ['a number', 42, 'Error', '42'],
    ['undefined', undefined, 'Error', "Tool 't' failed without an error (undefined was thrown)."],
    ['null', null, 'Error', "Tool 't' failed without an error (null was thrown)."],
    ['an empty Error', new RangeError(''), 'RangeError', "Tool 't' failed with RangeError and no message."],
  ])('%s', (_label, thrown, name, message) => {
    const result = toolErrorResult({ toolName: 't', error: thrown });
    expect(result).toEqual({ error: name, toolName: 't', message, kind: 'execution' });
  });

  test('a cyclic object does not crash the conversion', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(toolErrorResult({ toolName: 't', error: cyclic }).message).toBe('[object Object]');
  });
});

describe('message cap', () => {
  test('2,000 characters pass unchanged; longer ones are cut to 2,000 including "... (truncated)"', () => {
    const exact = toolErrorResult({ toolName: 't', error: new Error('x'.repeat(2000)) });
    expect(exact.message).toBe('x'.repeat(2000));
    const long = toolErrorResult({ toolName: 't', error: new Error('x'.repeat(2001)) });
    expect(long.message).toHaveLength(2000);
    expect(long.message).toBe('x'.repeat(1985) + '... (truncated)');
  });

  test('note, reason and issue messages are capped too', () => {
    const big = 'n'.repeat(5000);
    expect(toolErrorResult({ toolName: 't', error: 'r', kind: 'rejected', details: { note: big } }).note).toHaveLength(2000);
    expect(toolErrorResult({ toolName: 't', error: 'r', kind: 'denied', details: { reason: big } }).reason).toHaveLength(2000);
    expect(toolErrorResult({ toolName: 't', error: new ToolArgumentsValidationError('t', [{ path: 'a', message: big }]) }).issues?.[0]?.message).toHaveLength(2000);
  });

  test('any thrown message ends within the cap and never carries a stack', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), fc.constantFrom('Error', 'TypeError', 'CustomError'), (message, name) => {
        const err = new Error(message);
        err.name = name;
        const result = toolErrorResult({ toolName: 't', error: err });
        expect(result.message.length).toBeLessThanOrEqual(2000);
        expect(result.message.length).toBeGreaterThan(0);
        expect(Object.keys(result).sort()).toEqual(['error', 'kind', 'message', 'toolName']);
      }),
    );
  });

  test('a stack pasted into a message is removed', () => {
    const inner = new Error('connection reset');
    const result = toolErrorResult({ toolName: 'db', error: new Error(`query failed\n${inner.stack}`) });
    expect(result.message).toBe('query failed\nError: connection reset');
    expectNoStack(result);
  });
});

describe('PropagatingToolError', () => {
  test('subclasses keep their own name, are SDK errors, and are recognised', () => {
    class DelegationDepthError extends PropagatingToolError {}
    const err = new DelegationDepthError('Delegation went 6 levels deep (limit 5).', { hint: 'Raise maxDepth.' });
    expect(err.name).toBe('DelegationDepthError');
    expect(err).toBeInstanceOf(PropagatingToolError);
    expect(err).toBeInstanceOf(SDKError);
    expect(err.code).toBe('LOUSHO_PROPAGATING_TOOL_ERROR');
    expect(isPropagatingToolError(err)).toBe(true);
    expect(isPropagatingToolError(new Error('x'))).toBe(false);
    expect(isPropagatingToolError(Object.assign(new Error('x'), { [Symbol.for('lousho.propagatingToolError')]: true }))).toBe(true);
  });
});

describe('every tool error kind is documented', async () => {
  const { readFileSync } = await import('node:fs');
  const { DEFAULT_TOOL_ERROR_NAMES } = await import('../../src/tools/errors.js');
  const page = readFileSync(new URL('../../../../docs/tools.md', import.meta.url), 'utf8');
  test.each(Object.entries(DEFAULT_TOOL_ERROR_NAMES))('%s (%s) has a row in docs/tools.md saying when it happens', (kind, name) => {
    const row = page.split('\n').find((line) => line.startsWith(`| \`${kind}\` |`));
    expect(row).toBeDefined();
    if (kind !== 'execution') expect(row).toContain(`\`${name}\``);
    expect(row!.split('|').length).toBeGreaterThanOrEqual(5);
  });
  test('outputSchema has its own section', () => {
    expect(page).toMatch(/^## `outputSchema`/m);
  });
});
