import { describe, expectTypeOf, it } from 'vitest';
import { createAgent, createAgentHandler } from '@lousho/core';
import { toNodeHandler, type NodeRequestListener } from '@lousho/node/node';
import { mockModel } from '@lousho/core/testing';
import { createAgentClient, type AgentActionResult, type AgentClient, type AgentUIState } from '../src/index.js';

describe('client and handler types', () => {
  it('accepts an agent or a URL, and exposes a snapshot store with never-rejecting actions', () => {
    const agent = createAgent({ provider: mockModel(['hi']) });
    const inProcess = createAgentClient({ agent, sessionId: 's' });
    const overHttp = createAgentClient({ url: '/api/agent', headers: () => ({ authorization: 'Bearer x' }) }, { throttleMs: 0, storage: sessionStorage });
    expectTypeOf(inProcess).toEqualTypeOf<AgentClient>();
    expectTypeOf(overHttp.getSnapshot()).toEqualTypeOf<AgentUIState>();
    expectTypeOf(overHttp.subscribe).parameter(0).toEqualTypeOf<(state: AgentUIState) => void>();
    expectTypeOf(overHttp.send('hi')).toEqualTypeOf<Promise<AgentActionResult>>();
    expectTypeOf(overHttp.send([{ type: 'text', text: 'hi' }], { metadata: { page: 'home' } })).toEqualTypeOf<Promise<AgentActionResult>>();
    expectTypeOf(overHttp.sessionId).toEqualTypeOf<string | undefined>();
    // @ts-expect-error whole messages (other roles) cannot be sent by a client
    void overHttp.send([{ role: 'system', content: 'x' }]);
  });

  it('builds a Fetch handler and a Node listener from an agent', () => {
    const agent = createAgent({ provider: mockModel(['hi']) });
    const handler = createAgentHandler(agent, { basePath: '/api/agent', authorize: async (request) => request.headers.get('x-user') });
    expectTypeOf(handler).toEqualTypeOf<(request: Request) => Promise<Response>>();
    expectTypeOf(toNodeHandler(handler)).toEqualTypeOf<NodeRequestListener>();
  });
});
