import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { derived, get, type Readable } from 'svelte/store';
import { createAgent, defineTool } from '@lousho/core';
import type { AgentActionResult, AgentUIState, UIToolPart } from '@lousho/client';
import { mockModel } from '@lousho/core/testing';
import { loushoAgent, type LoushoAgentStore, type LoushoAgentValue, type ToolPartFor } from '../src/index.js';

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

/** createAgent() types the agent with its tools (a type-only marker). */
type TypedAgent = typeof agent;
const typedAgent: TypedAgent = agent;

type WeatherPart = UIToolPart<'get_weather', { city: string }, { city: string; tempC: number }>;
type EmailPart = UIToolPart<'send_email', { to: string; subject: string }, { messageId: string }>;

describe('loushoAgent types', () => {
  it('is a Svelte readable store: $agent, get() and derived() see its value type', () => {
    const store = loushoAgent({ url: '/api/agent' });
    expectTypeOf(store).toMatchTypeOf<Readable<LoushoAgentValue>>();
    expectTypeOf(get(store)).toEqualTypeOf<LoushoAgentValue>();
    expectTypeOf(get(derived(store, ($agent) => $agent.pendingApproval))).toEqualTypeOf<AgentUIState['pendingApproval']>();
  });

  it('narrows tool parts on toolName from a union of tools', () => {
    const store = loushoAgent<typeof weather | typeof email>({ agent });
    expectTypeOf(store).toEqualTypeOf<LoushoAgentStore<WeatherPart | EmailPart>>();
    const part = get(store).messages[0]!.parts[0]!;
    if (part.type === 'tool') {
      if (part.toolName === 'get_weather') {
        expectTypeOf(part.args).toEqualTypeOf<{ city: string } | undefined>();
        expectTypeOf(part.result).toEqualTypeOf<{ city: string; tempC: number } | undefined>();
      } else {
        expectTypeOf(part.toolName).toEqualTypeOf<'send_email'>();
      }
      // @ts-expect-error no such tool on this agent
      void (part.toolName === 'get_stock_price');
    }
  });

  it('infers the tools from an agent whose type names them, or takes the agent type explicitly', () => {
    expectTypeOf(loushoAgent({ agent: typedAgent })).toEqualTypeOf<LoushoAgentStore<WeatherPart | EmailPart>>();
    expectTypeOf(loushoAgent<TypedAgent>({ url: '/api/agent' })).toEqualTypeOf<LoushoAgentStore<WeatherPart | EmailPart>>();
    expectTypeOf<ToolPartFor<TypedAgent>>().toEqualTypeOf<WeatherPart | EmailPart>();
    // createAgent() types the agent with its tools, so a plain agent narrows too.
    expectTypeOf(loushoAgent({ agent })).toEqualTypeOf<LoushoAgentStore<WeatherPart | EmailPart>>();
    expectTypeOf(loushoAgent({ agent: createAgent({ provider: mockModel(['hi']) }) })).toEqualTypeOf<LoushoAgentStore<UIToolPart>>();
  });

  it('takes the client options and an initialState; actions never reject', () => {
    const store = loushoAgent(
      { url: '/api/agent', sessionId: 's1', headers: () => ({ authorization: 'Bearer t' }), storage: sessionStorage, storageKey: 'chat' },
      { throttleMs: 50, onFinish: ({ finishReason }) => void finishReason, onError: (error) => void error.code, initialState: undefined },
    );
    expectTypeOf(get(store).status).toEqualTypeOf<'idle' | 'submitted' | 'streaming' | 'awaiting-approval' | 'reconnecting' | 'error' | 'aborted'>();
    expectTypeOf(store.sessionId).toEqualTypeOf<string | undefined>();
    expectTypeOf(store.send('hi')).toEqualTypeOf<Promise<AgentActionResult>>();
    expectTypeOf(store.approve).toEqualTypeOf<(note?: string) => Promise<AgentActionResult>>();
    expectTypeOf(store.answer).parameters.toEqualTypeOf<[text: string]>();
    expectTypeOf(store.reset).toEqualTypeOf<() => void>();
    // @ts-expect-error a source is an agent or a url
    loushoAgent({ sessionId: 's1' });
    // @ts-expect-error initialState is a UI state (what GET /sessions/:id returns as `state`)
    loushoAgent({ url: '/api/agent' }, { initialState: { messages: [] } });
  });
});
