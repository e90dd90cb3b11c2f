import { ERROR_CODES, SDKError } from '@lousho/core';
import type { AgentHandlerOptions, HandlerAgent } from '@lousho/core';
import type { Channel, ChannelAgent } from '@lousho/node';

/** What a served agent module may export. */
export interface AgentModule {
  /** The agent, or a function of the environment (`process.env`, a worker's `env`) that returns one. */
  default?: unknown;
  agent?: unknown;
  /** Options of the HTTP handler (`authorize`, `maxBodyBytes`, ...); `basePath` comes from the build. */
  handlerOptions?: Omit<AgentHandlerOptions, 'basePath'>;
  /** Channels to mount at `/channels/<path>`. */
  channels?: readonly Channel[];
}

/** A `createAgent()` agent: the HTTP handler serves it and channels send to it. */
export type ServedAgent = HandlerAgent & ChannelAgent;

function isAgent(value: unknown): value is ServedAgent {
  const candidate = value as Partial<ServedAgent> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.stream === 'function' && typeof candidate.sessions === 'object' && typeof candidate.approvals === 'object';
}

/** The agent a module exports (`default` or `agent`; a function is called with `env`). */
export async function agentOf(mod: AgentModule, env: Record<string, unknown>): Promise<ServedAgent> {
  let value = mod.default ?? mod.agent;
  if (typeof value === 'function') value = await (value as (env: Record<string, unknown>) => unknown)(env);
  if (!isAgent(value)) {
    throw new SDKError(
      ERROR_CODES.LOUSHO_DEPLOY_INVALID,
      'The agent module must export the agent as its default export (or as `agent`), or a function of the environment returning one: export default createAgent({ ... }).',
    );
  }
  return value;
}

/** Matches `/sessions/:id/messages` and `/sessions/:id/approvals/:approvalId` below `basePath`: requests that start a run leg. */
export function turnSessionId(method: string, pathname: string, basePath: string): string | undefined {
  if (method !== 'POST' || !pathname.startsWith(`${basePath}/sessions/`)) return undefined;
  const [id, action] = pathname.slice(basePath.length + '/sessions/'.length).split('/');
  if (!id || (action !== 'messages' && action !== 'approvals')) return undefined;
  try {
    return decodeURIComponent(id);
  } catch {
    return undefined;
  }
}

export const HEALTH_PATH = '/healthz';
export const CHANNELS_PATH = '/channels';
