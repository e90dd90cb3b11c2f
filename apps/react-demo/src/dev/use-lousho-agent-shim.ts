// TEMPORARY stand-in for '@lousho/build-ai-agent/react' while the real hook is being written.
// Same API as the brief describes; removed once packages/react lands.
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { createAgentClient } from '../../../../packages/core/src/client/index.ts';
import type { AgentStreamEvent, AgentUIState, FinishReason } from '@lousho/build-ai-agent';

type Storage = { getItem(k: string): string | null; setItem(k: string, v: string): void; removeItem(k: string): void };
export type LoushoAgentSource =
  | { agent: any; sessionId?: string }
  | { url: string; sessionId?: string; headers?: HeadersInit; storage?: Storage; storageKey?: string };

export interface UseLoushoAgentOptions {
  onFinish?: (info: { state: AgentUIState; finishReason: FinishReason }) => void;
  onError?: (error: Error & { code: string }) => void;
  onEvent?: (event: AgentStreamEvent) => void;
  throttleMs?: number;
}

export function useLoushoAgent(source: LoushoAgentSource, options: UseLoushoAgentOptions = {}) {
  const latest = useRef(options);
  latest.current = options;
  const key = 'agent' in source ? source.agent : `${source.url}|${source.sessionId ?? ''}`;
  const client = useMemo(() => {
    const { storage, storageKey, ...rest } = source as any;
    return createAgentClient(rest, {
      ...(storage ? { storage } : {}),
      ...(storageKey ? { storageKey } : {}),
      onEvent: (e) => latest.current.onEvent?.(e),
      onError: (e) => latest.current.onError?.(e),
      onFinish: (i) => latest.current.onFinish?.(i),
    });
  }, [key]);
  useEffect(() => undefined, [client]);
  const state = useSyncExternalStore(client.subscribe, client.getSnapshot, client.getSnapshot);
  return {
    ...state,
    send: (text: string) => client.send(text),
    stop: () => client.stop(),
    approve: (note?: string) => client.approve(note),
    reject: (note?: string) => client.reject(note),
    answer: (text: string) => client.answer(text),
    reset: () => client.reset(),
    sessionId: client.sessionId,
  };
}
