import type { TraceExporter } from '@lousho/protocol';
import type { LoopDeps } from '../loop-deps.js';
import type { RunConfigContext } from '@lousho/protocol';

/** A sub-agent's own loop setup for one run: its model, and everything but what it inherits. */
export interface ChildSetup {
  model: string;
  deps: Omit<LoopDeps, 'emit' | 'signal'>;
  /** The agent's own `traceExporter`; without one it traces with the lead's. */
  traceExporter?: TraceExporter;
  /** For its `invoke_agent` span. */
  description?: string;
}

/** What `createAgent()` gives an agent so another agent's run can run it as a nested run. */
export interface DelegationHandle {
  /** Resolves the agent's config for a run on `ctx` (the task prompt as input); `fixedModel` keeps a resumed run's model. */
  setup(ctx: RunConfigContext, fixedModel?: string): Promise<ChildSetup>;
}

const handleKey = Symbol.for('lousho.delegationHandle');

export function setDelegationHandle(agent: object, handle: DelegationHandle): void {
  Object.defineProperty(agent, handleKey, { value: handle });
}

/** The handle of an agent made by `createAgent()`; undefined for anything else. */
export function delegationHandleOf(agent: unknown): DelegationHandle | undefined {
  return typeof agent === 'object' && agent !== null ? (agent as Record<symbol, DelegationHandle | undefined>)[handleKey] : undefined;
}
