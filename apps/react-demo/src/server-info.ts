import { useEffect, useState } from 'react';

/** What `GET /api/info` of the demo server says about the model that answers. */
export interface ModelInfo {
  kind: 'demo' | 'real';
  provider: string;
  model: string;
  notice: string;
}

export type ServerInfo = { state: 'loading' } | { state: 'ready'; model: ModelInfo } | { state: 'unreachable' };

/** Asks the demo server once which model it uses (and whether it is there at all). */
export function useServerInfo(): ServerInfo {
  const [info, setInfo] = useState<ServerInfo>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/info', { signal: controller.signal, headers: { accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { model?: ModelInfo };
        if (!body.model) throw new Error('no model info');
        setInfo({ state: 'ready', model: body.model });
      })
      .catch(() => {
        if (!controller.signal.aborted) setInfo({ state: 'unreachable' });
      });
    return () => controller.abort();
  }, []);
  return info;
}
