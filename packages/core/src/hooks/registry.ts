import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { AgentHook } from '@lousho/protocol';

/** Holds agent hooks; they run in registration order. */
export class HookRegistry {
  readonly #hooks: AgentHook[] = [];

  constructor(hooks: readonly AgentHook[] = []) {
    for (const hook of hooks) this.register(hook);
  }

  /** Adds a hook after the others (hooks run in registration order); throws `LOUSHO_INVALID_CONFIG` without a name. */
  register(hook: AgentHook): this {
    if (!hook || typeof hook.name !== 'string' || hook.name.length === 0) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'HookRegistry.register(hook): a hook needs a non-empty `name` (it is reported in events and denials).', { hint: "Give the hook a name: { name: 'redact-pii', preToolCall() { ... } }." });
    }
    this.#hooks.push(hook);
    return this;
  }

  /** Removes the first hook with this name; false when there was none. */
  unregister(name: string): boolean {
    const index = this.#hooks.findIndex((h) => h.name === name);
    if (index < 0) return false;
    this.#hooks.splice(index, 1);
    return true;
  }

  /** The hooks, in the order they run. */
  list(): readonly AgentHook[] {
    return this.#hooks;
  }
}
