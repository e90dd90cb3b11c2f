/** One thing a memory slot keeps. */
export interface MemoryItem {
  id: string;
  text: string;
  /** ISO 8601 time it was saved. */
  createdAt: string;
}

/**
 * Where memory items live. A slot is one list of items (one memory in one scope: the global list,
 * a session's, a user's); slot names are opaque to the provider. Implement it to keep memory in a
 * database or a vector store.
 */
export interface MemoryProvider {
  /** Appends an item to the slot and returns it. */
  add(slot: string, text: string): Promise<MemoryItem>;
  /** The slot's newest items, newest first. */
  recent(slot: string, limit: number): Promise<MemoryItem[]>;
  /** The slot's items that match `query`, best first. */
  search(slot: string, query: string, limit: number): Promise<MemoryItem[]>;
}

/** What a scope function receives. */
export interface MemoryScopeContext {
  sessionId?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Whose memory it is: `'global'` (one list for every conversation), `'session'` (one per session),
 * or a function of the run returning a key, e.g. `({ metadata }) => \`user:${metadata?.userId}\``.
 */
export type MemoryScope = 'global' | 'session' | ((ctx: MemoryScopeContext) => string | Promise<string>);

/** How much of a memory a run recalls into its system prompt (the newest items first). */
export interface MemoryRecallOptions {
  /** Most items recalled into the system prompt (default 20). */
  limit?: number;
  /** Most tokens the recalled items may take in the system prompt (default 1,000). */
  maxTokens?: number;
}

/** What `defineMemory()` takes: the memory's name, whose it is, and where its items are kept. */
export interface MemoryDefinition {
  /** Names the tools `remember_<name>` and `recall_<name>`: letters, digits, `_` and `-`, at most 50. */
  name: string;
  scope: MemoryScope;
  provider: MemoryProvider;
  /** What the memory is for, told to the model (default: a generic sentence). */
  description?: string;
  /** How much is recalled into the system prompt on a run's first model call; `false` recalls nothing. */
  recall?: MemoryRecallOptions | false;
}

/** A memory as `createAgent({ memory })` takes it (from `defineMemory()`). */
export interface Memory {
  readonly name: string;
  readonly scope: MemoryScope;
  readonly provider: MemoryProvider;
  readonly description: string | undefined;
  readonly recall: Required<MemoryRecallOptions> | false;
}
