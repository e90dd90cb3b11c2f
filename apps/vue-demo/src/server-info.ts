import { onMounted, onScopeDispose, shallowRef, type ShallowRef } from 'vue';

/** What `GET /api/info` of the demo server says about the model that answers. */
export interface ModelInfo {
  kind: 'demo' | 'real';
  provider: string;
  model: string;
  notice: string;
}

export type ServerInfo = { state: 'loading' } | { state: 'ready'; model: ModelInfo } | { state: 'unreachable' };

/** Asks the demo server once which model it uses (and whether it is there at all). */
export function useServerInfo(): Readonly<ShallowRef<ServerInfo>> {
  const info = shallowRef<ServerInfo>({ state: 'loading' });
  const controller = new AbortController();
  onMounted(() => {
    fetch('/api/info', { signal: controller.signal, headers: { accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { model?: ModelInfo };
        if (!body.model) throw new Error('no model info');
        info.value = { state: 'ready', model: body.model };
      })
      .catch(() => {
        if (!controller.signal.aborted) info.value = { state: 'unreachable' };
      });
  });
  onScopeDispose(() => controller.abort());
  return info;
}
