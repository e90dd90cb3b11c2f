import type { AgentUIState, ClientAgent } from '@lousho/client';
import { createClient } from './create-client.js';
import type { LoushoAgentOptions, LoushoAgentSource, LoushoAgentStore, LoushoAgentValue, LoushoInProcessSource, ToolPartFor } from './types.js';

/**
 * Server rendering (SvelteKit SSR, `svelte/server`): no document. There a subscription only reads
 * the value; nothing is fetched, nothing is started, no timer is left behind.
 */
const onServer = (): boolean => typeof document === 'undefined';

/**
 * The conversation with an agent, in process (`{ agent, sessionId? }`) or over HTTP
 * (`{ url, sessionId?, headers?, fetch?, storage?, storageKey? }`), as a Svelte store:
 * `$agent.messages`, `$agent.status`, `$agent.pendingApproval`, ... in a component, and
 * `agent.send()`, `stop()`, `resume()`, `approve()`, `reject()`, `answer()`, `submitToolResult()`, `reset()` on the store.
 *
 * A thin layer over the framework-neutral client. Creating the store does no I/O. In the browser,
 * the first subscriber restores the session (or starts from `options.initialState`, which a
 * SvelteKit `load` read on the server) and follows a turn still running; the last one leaving
 * detaches (the run goes on on the server) and a new subscriber picks it up again. On the server,
 * subscribing only reads the value. Make one store per component (or per page), never one per
 * module on the server: a store holds one person's conversation.
 *
 * Typed from the agent: `loushoAgent({ agent })` or `loushoAgent<typeof agent>(...)` narrows tool
 * parts on `toolName` when the agent's type names its tools; `loushoAgent<typeof weather | typeof
 * email>(...)` does the same from the tools themselves.
 */
export function loushoAgent<A extends ClientAgent>(source: LoushoInProcessSource<A>, options?: LoushoAgentOptions): LoushoAgentStore<ToolPartFor<A>>;
export function loushoAgent<T = unknown>(source: LoushoAgentSource, options?: LoushoAgentOptions): LoushoAgentStore<ToolPartFor<T>>;
export function loushoAgent(source: LoushoAgentSource, options: LoushoAgentOptions = {}): LoushoAgentStore {
  const { initialState, ...clientOptions } = options;
  const { client, seed } = createClient(source, clientOptions, initialState);
  const blank = client.getSnapshot();
  /** Until the client has taken the seed over (its state moved on) or was reset, the seed is what to show. */
  let seeding = seed !== undefined;

  let last: { state: AgentUIState; sessionId: string | undefined; value: LoushoAgentValue } | undefined;
  /** The value now; the same object until the state or the session id changes. */
  const read = (): LoushoAgentValue => {
    const snapshot = client.getSnapshot();
    if (snapshot !== blank) seeding = false;
    const state = seeding ? seed! : snapshot;
    const sessionId = client.sessionId;
    if (last?.state !== state || last.sessionId !== sessionId) {
      // The state's fields but the reducer's bookkeeping.
      const { lastSeq: _lastSeq, runId: _runId, ...fields } = state;
      last = { state, sessionId, value: { ...fields, sessionId } };
    }
    return last.value;
  };

  /** What each browser subscriber does on a change (also after a reset that leaves the client's state as it was). */
  const refreshers = new Set<() => void>();

  // The client's actions as they are, then the store's own.
  const { send, unqueue, stop, resume, approve, reject, answer, submitToolResult, upload } = client;
  return {
    upload,
    send,
    unqueue,
    stop,
    resume,
    approve,
    reject,
    answer,
    submitToolResult,
    subscribe(run) {
      let shown = read();
      run(shown);
      if (onServer()) return () => {};
      const refresh = (): void => {
        const value = read();
        if (value !== shown) run((shown = value));
      };
      refreshers.add(refresh);
      // One client listener per subscriber: the client detaches one macrotask after the last one
      // leaves, so an unsubscribe followed by a subscribe (a `{#key}` block re-running) restarts nothing.
      const unsubscribe = client.subscribe(refresh);
      return () => {
        refreshers.delete(refresh);
        unsubscribe();
      };
    },
    get sessionId() {
      return client.sessionId;
    },
    reset() {
      seeding = false;
      client.reset();
      for (const refresh of [...refreshers]) refresh();
    },
    open(id) {
      seeding = false;
      const opened = client.open(id);
      for (const refresh of [...refreshers]) refresh();
      return opened;
    },
  };
}
