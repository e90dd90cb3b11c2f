import type { RunConfigContext } from '@lousho/protocol';
import type { SubagentInfo } from '@lousho/protocol';

/**
 * Sub-agents chosen per run: `list` names them (the lead's `task` tool and prompt listing),
 * `resolve` returns the agent for a name the model picked. Both may be async; `ctx` is the lead
 * run's config context.
 */
export interface SubagentCatalog<TAgent = unknown> {
  /**
   * The sub-agents this run may use, read once when the run starts (an empty list gives the lead no
   * `task` tool). Each name must be usable (1-64 letters, digits, `_`, `.`, `-`), listed once, and have
   * a description; a bad listing, or a throw, fails the run with `LOUSHO_CONFIG_RESOLVER_FAILED`.
   */
  list(ctx: RunConfigContext): readonly SubagentInfo[] | Promise<readonly SubagentInfo[]>;
  /**
   * The agent (from `createAgent()`) for a name `list` returned, called when the model delegates to it;
   * never called for a name `list` did not return. Returning nothing fails that task call with `LOUSHO_INVALID_CONFIG`.
   */
  resolve(name: string, ctx: RunConfigContext): TAgent | undefined | Promise<TAgent | undefined>;
}

/** The `subagents` option: agents by name, or a catalog that lists and resolves them per run. */
export type SubagentsOption<TAgent = unknown> = Readonly<Record<string, TAgent>> | SubagentCatalog<TAgent>;
