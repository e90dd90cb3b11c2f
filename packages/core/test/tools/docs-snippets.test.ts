/* eslint-disable @typescript-eslint/no-unused-vars -- the docs snippets are kept verbatim (their execute ignores its arguments) */
/**
 * The snippets of the Tools docs (lousho-tools.md) and of the "Tools" / "Tool errors" sections of
 * the API overview, as written there. Imports point at this package's sources instead of
 * `@lousho/build-ai-agent`, and the `createAgent(...)` lines are left out: the agent lives in
 * another folder, so these tests cover the tool and registry part of each snippet.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { defineTool, ToolRegistry, toolErrorResult, validateToolArguments, type ToolInput, type ToolOutput } from '../../src/tools/index.js';

const ctx = { toolCallId: 'call_1', messages: [] };

describe('lousho-tools.md', () => {
  test('defineTool() and ToolInput / ToolOutput (createAgent line left out)', async () => {
    const weather = defineTool({
      name: 'weather', // 1-64 chars: letters, digits, _ and -
      description: 'Get weather information',
      input: z.object({ location: z.string(), units: z.enum(['celsius', 'fahrenheit']) }),
      execute: async ({ location, units }) => ({ temperature: 72, conditions: 'sunny' }),
    });

    type WeatherArgs = ToolInput<typeof weather>; // { location: string; units: 'celsius' | 'fahrenheit' }
    type WeatherResult = ToolOutput<typeof weather>; // { temperature: number; conditions: string }

    expectTypeOf<WeatherArgs>().toEqualTypeOf<{ location: string; units: 'celsius' | 'fahrenheit' }>();
    expectTypeOf<WeatherResult>().toEqualTypeOf<{ temperature: number; conditions: string }>();
    // "A defined tool is a regular ToolDescriptor: it carries its schema as inputSchema ... and its execute"
    expect(weather.inputSchema).toBe(weather.input);
    await expect(weather.execute({ location: 'Paris', units: 'celsius' }, ctx)).resolves.toEqual({ temperature: 72, conditions: 'sunny' });
    // "the result drops in anywhere tools are accepted": ToolRegistry.register(tool)
    expect(new ToolRegistry().register(weather).toToolSpecs()).toEqual([
      {
        name: 'weather',
        description: 'Get weather information',
        parameters: {
          type: 'object',
          properties: { location: { type: 'string' }, units: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
          required: ['location', 'units'],
        },
      },
    ]);
  });

  test('the thrown-error result', () => {
    const result = toolErrorResult({ toolName: 'search', error: new TypeError('query must not be empty') });
    expect(result).toEqual({ error: 'TypeError', toolName: 'search', message: 'query must not be empty', kind: 'execution' });
  });
});

describe('lousho-api-overview.md, Tools and Tool errors', () => {
  test('send_email: needsApproval gets the typed, parsed arguments', async () => {
    const sendEmail = defineTool({
      name: 'send_email', // 1-64 chars: letters, digits, _ and -
      description: 'Send an email',
      input: z.object({ to: z.string().email(), subject: z.string() }),
      needsApproval: ({ to }) => !to.endsWith('@mycompany.com'), // `to` is typed
      async execute({ to, subject }) {
        return { messageId: `${to}:${subject}` };
      },
    });

    const predicate = sendEmail.needsApproval as (args: { to: string; subject: string }, c: typeof ctx) => boolean;
    expect(predicate({ to: 'ann@mycompany.com', subject: 'hi' }, ctx)).toBe(false);
    expect(predicate({ to: 'bob@example.com', subject: 'hi' }, ctx)).toBe(true);
    await expect(sendEmail.execute({ to: 'bob@example.com', subject: 'hi' }, ctx)).resolves.toEqual({ messageId: 'bob@example.com:hi' });
  });

  test('the argument validation result (zod 3 wording, as in the example)', async () => {
    const sendEmail = defineTool({
      name: 'sendEmail',
      description: 'Send an email',
      input: z3.object({ to: z3.string(), count: z3.number() }),
      execute: async () => 'sent',
    });
    const outcome = await validateToolArguments(sendEmail, JSON.stringify({ count: '2' }));
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
});
