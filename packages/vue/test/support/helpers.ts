import { afterEach } from 'vitest';
import { effectScope, type EffectScope } from 'vue';
import type { LLMProvider, StreamChunk } from '@lousho/core';
import type { SessionIdStorage, UIMessage } from '@lousho/client';
import { serveAgent, type AgentServer } from '@lousho/conformance';

/** Servers and scopes made by a test, closed after it. */
const servers: AgentServer[] = [];
const scopes: EffectScope[] = [];
afterEach(async () => {
  for (const scope of scopes.splice(0)) scope.stop();
  for (const server of servers.splice(0)) await server.close();
});

export async function serve(agent: Parameters<typeof serveAgent>[0]): Promise<AgentServer> {
  const server = await serveAgent(agent);
  servers.push(server);
  return server;
}

/** Runs `setup` in a new effect scope (stopped after the test unless the test stops it first). */
export function inScope<T>(setup: () => T): { scope: EffectScope; result: T } {
  const scope = effectScope();
  scopes.push(scope);
  return { scope, result: scope.run(setup)! };
}

export const requestsSince = (server: AgentServer, from: number): string[] => server.requests.slice(from).map((r) => `${r.method} ${r.path}`);

export const textOf = (message: UIMessage): string => message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** A Storage-like map (what `sessionStorage` would be in a browser). */
export function memoryStorage(initial: Record<string, string> = {}): SessionIdStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

/** A model that streams `count` one-character deltas, each in its own macrotask (as a network would). */
export function burstModel(count: number): LLMProvider {
  const tick = (): Promise<void> => new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
  return {
    name: 'burst',
    async *stream(): AsyncGenerator<StreamChunk> {
      for (let i = 0; i < count; i++) {
        yield { type: 'text-delta', text: 'x' };
        await tick();
      }
      yield { type: 'finish', finishReason: 'stop' };
    },
  };
}
