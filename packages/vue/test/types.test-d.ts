import { describe, expectTypeOf, it } from 'vitest';
import { computed, ref, type ShallowRef } from 'vue';
import { createAgent } from '@lousho/core';
import type { AgentActionResult, UIMessage, UIToolPart } from '@lousho/client';
import { mockModel } from '@lousho/core/testing';
import { useLoushoAgent, type ReadonlyShallowRef, type ToolPartFor, type UseLoushoAgentResult } from '../src/index.js';
import TypedChat from './fixtures/TypedChat.vue';
import { agent, type email, type TypedAgent, type weather } from './fixtures/tools.js';

declare const typedAgent: TypedAgent;

type WeatherPart = UIToolPart<'get_weather', { city: string }, { city: string; tempC: number }>;
type EmailPart = UIToolPart<'send_email', { to: string; subject: string }, { messageId: string }>;

describe('useLoushoAgent types', () => {
  it('narrows tool parts on toolName from a union of tools', () => {
    const chat = useLoushoAgent<typeof weather | typeof email>({ agent });
    expectTypeOf(chat).toEqualTypeOf<UseLoushoAgentResult<WeatherPart | EmailPart>>();
    const part = chat.messages.value[0]!.parts[0]!;
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

  it('infers the tools from an agent whose type names them, through a ref or a getter too', () => {
    expectTypeOf(useLoushoAgent({ agent: typedAgent })).toEqualTypeOf<UseLoushoAgentResult<WeatherPart | EmailPart>>();
    expectTypeOf(useLoushoAgent(() => ({ agent: typedAgent, sessionId: 's1' }))).toEqualTypeOf<UseLoushoAgentResult<WeatherPart | EmailPart>>();
    expectTypeOf(useLoushoAgent(computed(() => ({ agent: typedAgent })))).toEqualTypeOf<UseLoushoAgentResult<WeatherPart | EmailPart>>();
    expectTypeOf(useLoushoAgent<TypedAgent>({ url: '/api/agent' })).toEqualTypeOf<UseLoushoAgentResult<WeatherPart | EmailPart>>();
    expectTypeOf<ToolPartFor<TypedAgent>>().toEqualTypeOf<WeatherPart | EmailPart>();
  });

  it('falls back to untyped tool parts when nothing names the tools', () => {
    expectTypeOf(useLoushoAgent({ url: '/api/agent' })).toEqualTypeOf<UseLoushoAgentResult<UIToolPart>>();
    expectTypeOf(useLoushoAgent({ agent: createAgent({ provider: mockModel(['hi']) }) })).toEqualTypeOf<UseLoushoAgentResult<UIToolPart>>();
  });

  it('returns read-only shallow refs and never-rejecting actions', () => {
    const sessionId = ref<string | undefined>('s1');
    const chat = useLoushoAgent(
      { url: () => '/api/agent', sessionId, headers: () => ({ authorization: 'Bearer t' }), storage: sessionStorage, storageKey: 'chat' },
      { throttleMs: 50, onFinish: ({ finishReason }) => void finishReason, onError: (error) => void error.code, onEvent: (event) => void event.seq },
    );
    expectTypeOf(chat.messages).toEqualTypeOf<ReadonlyShallowRef<readonly UIMessage[]>>();
    expectTypeOf(chat.status.value).toEqualTypeOf<'idle' | 'submitted' | 'streaming' | 'awaiting-approval' | 'reconnecting' | 'error' | 'aborted'>();
    expectTypeOf(chat.sessionId.value).toEqualTypeOf<string | undefined>();
    expectTypeOf(chat.status).toMatchTypeOf<Readonly<ShallowRef<string>>>();
    // @ts-expect-error the refs are read-only
    chat.status.value = 'idle';
    // @ts-expect-error the messages too
    chat.messages.value = [];
    expectTypeOf(chat.send('hi')).toEqualTypeOf<Promise<AgentActionResult>>();
    expectTypeOf(chat.approve).toEqualTypeOf<(note?: string) => Promise<AgentActionResult>>();
    expectTypeOf(chat.answer).parameters.toEqualTypeOf<[text: string]>();
    expectTypeOf(chat.reset).toEqualTypeOf<() => void>();
    // @ts-expect-error a source is an agent or a url
    useLoushoAgent({ sessionId: 's1' });
    // @ts-expect-error a url is a string (or a ref or getter of one)
    useLoushoAgent({ url: 42 });
  });

  it('checks templates too: the typed chat component takes a url', () => {
    expectTypeOf(TypedChat).toBeObject();
  });
});
