import type { AgentActionResult, AgentClientInput, AgentClientOptions, AgentUIState, AttachmentPart, ClientAgent, SendOptions } from '@lousho/client';
import type { SessionListResult, SessionListState } from '@lousho/client/sessions';

/** The two ways a binding reaches its agent: in the page's process, or over HTTP. */
export type TransportName = 'in-process' | 'http';

/** Where a binding gets its agent from: the two sources every binding accepts. */
export type ConformanceSource = { agent: ClientAgent; sessionId?: string } | { url: string; sessionId?: string };

/** The options the suite passes to a binding (the client's callbacks, throttle and browser tool handlers). */
export type BindingOptions = Pick<AgentClientOptions, 'onEvent' | 'onFinish' | 'onError' | 'throttleMs' | 'browserTools'>;

/**
 * The binding's state as the framework holds it now: what a component would render (React: the
 * hook's last render; Vue: the refs' values; Svelte: the store's value).
 */
export interface BindingState {
  messages: AgentUIState['messages'];
  status: AgentUIState['status'];
  pendingApproval: AgentUIState['pendingApproval'];
  error: AgentUIState['error'];
  usage: AgentUIState['usage'];
  finishReason: AgentUIState['finishReason'];
  guardrail: AgentUIState['guardrail'];
  /** Messages sent while a turn ran, waiting (undefined while none ever waited). */
  queued?: AgentUIState['queued'];
  sessionId: string | undefined;
}

/** One mounted binding (a component using the hook, a composable in a scope, a subscribed store). */
export interface MountedBinding {
  state(): BindingState;
  send(input: AgentClientInput, options?: SendOptions): Promise<AgentActionResult>;
  /** Removes a waiting message (`state().queued[i].id`). */
  unqueue(queueId: string): Promise<AgentActionResult>;
  /** Uploads a file to the session: its attachment part (the binding's `upload`). */
  upload(file: Blob, name?: string): Promise<AttachmentPart>;
  stop(): Promise<AgentActionResult>;
  resume(): Promise<AgentActionResult>;
  approve(note?: string): Promise<AgentActionResult>;
  reject(note?: string): Promise<AgentActionResult>;
  answer(text: string): Promise<AgentActionResult>;
  submitToolResult(toolCallId: string, result: unknown, options?: { error?: string }): Promise<AgentActionResult>;
  reset(): void;
  /** Switches to another session (`open(id)` of the binding). */
  open?(sessionId: string): Promise<void>;
  /** Gives the mounted binding another source (another session); only with `supportsSourceChange`. */
  setSource?(source: ConformanceSource): void | Promise<void>;
  /** Unmounts: the binding stops following (the agent's run goes on). */
  unmount(): void | Promise<void>;
}

/** A thread list mounted with its chat (`useLoushoSessions` next to `useLoushoAgent`, ...): what the sidebar shows, and its actions. */
export interface MountedThreads {
  state(): SessionListState;
  refresh(): Promise<SessionListResult>;
  loadMore(): Promise<SessionListResult>;
  rename(sessionId: string, title: string): Promise<SessionListResult>;
  remove(sessionId: string): Promise<SessionListResult>;
  open(sessionId: string): Promise<void>;
  openNew(): void;
}

/** How the suite drives one framework's binding. */
export interface BindingDriver {
  /**
   * Mounts the binding and its thread list in one component, the way a page with a sidebar does;
   * the thread scenarios run when the driver has it.
   */
  mountWithThreads?(source: ConformanceSource, options: BindingOptions): Promise<MountedBinding & { threads: MountedThreads }>;
  /** Mounts the binding on `source` with `options`, the way an app would. */
  mount(source: ConformanceSource, options: BindingOptions): Promise<MountedBinding>;
  /** The binding can switch a mounted instance to another session (`MountedBinding.setSource`). */
  supportsSourceChange?: boolean;
}

/** What the suite needs from the test runner (vitest's `describe`, `it` and `expect` fit). */
export interface SuiteApi {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>, timeoutMs?: number): void;
  expect: ExpectLike;
}

/** The part of vitest's (or Jest's) `expect` the scenarios use. */
export interface ExpectLike {
  (actual: unknown): any;
  objectContaining(value: object): any;
  any(constructor: unknown): any;
  stringContaining(value: string): any;
}
