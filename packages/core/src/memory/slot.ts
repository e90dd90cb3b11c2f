import { ConfigResolverError } from '../options/config-resolver-error.js';
import type { Memory } from './types.js';

/** A memory bound to the slot of one run. */
export interface MemorySlot {
  memory: Memory;
  slot: string;
}

/**
 * The slot of `memory` for a run: `<name>:global`, `<name>:session:<id>`, or `<name>:scope:<key>`
 * for a scope function's key. A scope function that throws or returns no key fails the run with
 * `LOUSHO_CONFIG_RESOLVER_FAILED` (field `memory.<name>.scope`).
 */
export async function memorySlot(memory: Memory, ctx: { sessionId?: string; metadata?: Record<string, unknown> }): Promise<MemorySlot> {
  const field = `memory.${memory.name}.scope`;
  let key: string;
  if (memory.scope === 'global') key = 'global';
  else if (memory.scope === 'session') {
    if (!ctx.sessionId) throw new ConfigResolverError(field, new Error("a 'session' memory needs a run with a sessionId"));
    key = `session:${ctx.sessionId}`;
  } else {
    let value: unknown;
    try {
      value = await memory.scope({ ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}), ...(ctx.metadata ? { metadata: ctx.metadata } : {}) });
    } catch (error) {
      throw new ConfigResolverError(field, error);
    }
    if (typeof value !== 'string' || value === '') throw new ConfigResolverError(field, new Error(`it must return a non-empty string key, got ${JSON.stringify(value) ?? String(value)}`));
    key = `scope:${value}`;
  }
  return { memory, slot: `${memory.name}:${key}` };
}
