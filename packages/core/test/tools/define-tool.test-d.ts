/* eslint-disable @typescript-eslint/no-unused-vars -- the docs snippets are kept verbatim, and type tests define tools only to read their types */
import { type } from 'arktype';
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { defineTool, withArtifacts, type ToolExecutionContext, type ToolInput, type ToolOutput } from '../../src/tools/index.js';

describe('ToolInput / ToolOutput (the docs snippet)', () => {
  test('zod 4: args and result types come from input and execute', () => {
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
    expectTypeOf(weather.name).toEqualTypeOf<'weather'>();
  });

  test('zod 3 schemas infer the same way', () => {
    const weather = defineTool({
      name: 'weather',
      description: 'Get weather information',
      input: z3.object({ location: z3.string(), units: z3.enum(['celsius', 'fahrenheit']) }),
      execute: async ({ location, units }) => ({ temperature: 72, conditions: 'sunny' }),
    });
    expectTypeOf<ToolInput<typeof weather>>().toEqualTypeOf<{ location: string; units: 'celsius' | 'fahrenheit' }>();
    expectTypeOf<ToolOutput<typeof weather>>().toEqualTypeOf<{ temperature: number; conditions: string }>();
  });

  test('a synchronous execute gives the same ToolOutput as an async one', () => {
    const t = defineTool({
      name: 'sync_tool',
      description: 'Returns a number',
      input: z.object({}),
      execute: () => 42,
    });
    expectTypeOf<ToolOutput<typeof t>>().toEqualTypeOf<number>();
  });
});

describe('execute and needsApproval get the parsed (output) type', () => {
  test('zod 4 transform and default: execute sees the output type', () => {
    const t = defineTool({
      name: 'count_chars',
      description: 'Counts characters',
      input: z.object({ text: z.string().transform((s) => s.length), limit: z.number().default(10) }),
      execute: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ text: number; limit: number }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolExecutionContext>();
        return { ok: true as const };
      },
      needsApproval: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: number; limit: number }>();
        return args.text > 100;
      },
    });
    expectTypeOf<ToolInput<typeof t>>().toEqualTypeOf<{ text: number; limit: number }>();
    expectTypeOf<ToolOutput<typeof t>>().toEqualTypeOf<{ ok: true }>();
  });

  test('zod 3 transform: execute sees the output type', () => {
    const t = defineTool({
      name: 'parse_date',
      description: 'Parses a date',
      input: z3.object({ when: z3.string().transform((s) => new Date(s)), tags: z3.array(z3.string()).optional() }),
      execute: async ({ when, tags }) => {
        expectTypeOf(when).toEqualTypeOf<Date>();
        expectTypeOf(tags).toEqualTypeOf<string[] | undefined>();
        return when.getTime();
      },
    });
    expectTypeOf<ToolInput<typeof t>>().toEqualTypeOf<{ when: Date; tags?: string[] | undefined }>();
    expectTypeOf<ToolOutput<typeof t>>().toEqualTypeOf<number>();
  });

  test('arktype schemas are typed too', () => {
    const t = defineTool({
      name: 'ark',
      description: 'An arktype tool',
      input: type({ city: 'string', 'days?': 'number' }),
      execute: ({ city, days }) => `${city}:${days ?? 1}`,
    });
    expectTypeOf<ToolInput<typeof t>>().toEqualTypeOf<{ city: string; days?: number }>();
    expectTypeOf<ToolOutput<typeof t>>().toEqualTypeOf<string>();
  });

  test('the api-overview snippet: needsApproval destructures a typed `to`', () => {
    const sendEmail = defineTool({
      name: 'send_email',
      description: 'Send an email',
      input: z.object({ to: z.string().email(), subject: z.string() }),
      needsApproval: ({ to }) => !to.endsWith('@mycompany.com'), // `to` is typed
      async execute({ to, subject }) {
        return { messageId: `${to}:${subject}` };
      },
    });
    expectTypeOf<ToolOutput<typeof sendEmail>>().toEqualTypeOf<{ messageId: string }>();
  });

  test('sandboxExecute gets args, the sandbox and the context', () => {
    defineTool({
      name: 'sandboxed',
      description: 'Runs in a sandbox',
      input: z.object({ cmd: z.string() }),
      requiresSandbox: true,
      execute: async ({ cmd }) => cmd,
      sandboxExecute: async ({ cmd }, sandbox, ctx) => {
        expectTypeOf(cmd).toEqualTypeOf<string>();
        expectTypeOf(ctx.toolCallId).toEqualTypeOf<string>();
        // run(fn) is optional: only an adapter that means it offers it.
        expectTypeOf(sandbox.run).toEqualTypeOf<(<T>(fn: () => Promise<T> | T) => Promise<T>) | undefined>();
        return (await sandbox.exec!(cmd)).stdout;
      },
    });
  });
});

describe('artifacts do not change ToolOutput', () => {
  test('withArtifacts is unwrapped', () => {
    const t = defineTool({
      name: 'chart',
      description: 'Draws a chart',
      input: z.object({ n: z.number() }),
      execute: async ({ n }) => withArtifacts({ points: n }, [{ type: 'chart', data: [1, 2] }]),
    });
    expectTypeOf<ToolOutput<typeof t>>().toEqualTypeOf<{ points: number }>();
  });
});

describe('type errors the compiler must catch', () => {
  test('wrong argument use and bad options do not compile', () => {
    defineTool({
      name: 'typed',
      description: 'Typed',
      input: z.object({ n: z.number() }),
      // @ts-expect-error n is a number, not a string
      execute: ({ n }) => n.toUpperCase(),
    });
    defineTool({
      name: 'typed',
      description: 'Typed',
      input: z.object({ n: z.number() }),
      execute: ({ n }) => n,
      // @ts-expect-error needsApproval must be boolean or a predicate
      needsApproval: 'yes',
    });
    // @ts-expect-error input is required
    defineTool({ name: 'typed', description: 'Typed', execute: () => 1 });
  });
});
