import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '@lousho/core';
import type { AgentActionResult, UIToolPart } from '@lousho/client';
import { mockModel } from '@lousho/core/testing';
import { useLoushoAgent, type ToolPartFor, type UseLoushoAgentResult } from '../src/index.js';

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city',
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 21 }),
});
const email = defineTool({
  name: 'send_email',
  description: 'Send an email',
  input: z.object({ to: z.string(), subject: z.string() }),
  needsApproval: true,
  execute: async () => ({ messageId: 'm1' }),
});
const agent = createAgent({ provider: mockModel(['hi']), tools: [weather, email] });

/** createAgent() types the agent with its tools (a type-only marker), so bindings can narrow tool parts. */
type TypedAgent = typeof agent;
const typedAgent = agent;

type WeatherPart = UIToolPart<'get_weather', { city: string }, { city: string; tempC: number }>;
type EmailPart = UIToolPart<'send_email', { to: string; subject: string }, { messageId: string }>;

describe('useLoushoAgent types', () => {
  it('narrows tool parts on toolName from a union of tools', () => {
    const chat = useLoushoAgent<typeof weather | typeof email>({ agent });
    expectTypeOf(chat).toEqualTypeOf<UseLoushoAgentResult<WeatherPart | EmailPart>>();
    const part = chat.messages[0]!.parts[0]!;
    if (part.type === 'tool') {
      if (part.toolName === 'get_weather') {
        expectTypeOf(part.args).toEqualTypeOf<{ city: string } | undefined>();
        expectTypeOf(part.result).toEqualTypeOf<{ city: string; tempC: number } | undefined>();
      } else {
        expectTypeOf(part.toolName).toEqualTypeOf<'send_email'>();
        expectTypeOf(part.args).toEqualTypeOf<{ to: string; subject: string } | undefined>();
      }
      // @ts-expect-error no such tool on this agent
      void (part.toolName === 'get_stock_price');
    }
  });

  it('infers the tools from an agent whose type names them, or takes the agent type explicitly', () => {
    expectTypeOf(useLoushoAgent({ agent: typedAgent })).toEqualTypeOf<UseLoushoAgentResult<WeatherPart | EmailPart>>();
    expectTypeOf(useLoushoAgent<TypedAgent>({ url: '/api/agent' })).toEqualTypeOf<UseLoushoAgentResult<WeatherPart | EmailPart>>();
    expectTypeOf<ToolPartFor<TypedAgent>>().toEqualTypeOf<WeatherPart | EmailPart>();
  });

  it('falls back to untyped tool parts when nothing names the tools', () => {
    expectTypeOf(useLoushoAgent({ url: '/api/agent' })).toEqualTypeOf<UseLoushoAgentResult<UIToolPart>>();
    const untyped = createAgent({ provider: mockModel(['hi']) });
    expectTypeOf(useLoushoAgent({ agent: untyped })).toEqualTypeOf<UseLoushoAgentResult<UIToolPart>>();
  });

  it('returns the state fields and never-rejecting actions', () => {
    const chat = useLoushoAgent(
      { url: '/api/agent', sessionId: 's1', headers: () => ({ authorization: 'Bearer t' }), storage: sessionStorage, storageKey: 'chat' },
      { throttleMs: 50, onFinish: ({ finishReason }) => void finishReason, onError: (error) => void error.code, onEvent: (event) => void event.seq },
    );
    expectTypeOf(chat.status).toEqualTypeOf<'idle' | 'submitted' | 'streaming' | 'awaiting-approval' | 'reconnecting' | 'error' | 'aborted'>();
    expectTypeOf(chat.sessionId).toEqualTypeOf<string | undefined>();
    expectTypeOf(chat.send('hi')).toEqualTypeOf<Promise<AgentActionResult>>();
    expectTypeOf(chat.approve).toEqualTypeOf<(note?: string) => Promise<AgentActionResult>>();
    expectTypeOf(chat.answer).parameters.toEqualTypeOf<[text: string]>();
    expectTypeOf(chat.reset).toEqualTypeOf<() => void>();
    // @ts-expect-error a source is an agent or a url
    useLoushoAgent({ sessionId: 's1' });
  });
});
