import { randomUUID } from 'node:crypto';
import { ANONYMOUS_PRINCIPAL, type Agent, type AgentInput, type ExecutionResult } from '@lousho/core';

/** What an adapter uses of an agent (any `createAgent()` agent). */
export type TriggerAgent = Pick<Agent<any>, 'send' | 'sessions'>;

/** Where adapters write warnings (a failed check, a risky setup). Default: `console`. */
export interface TriggerLogger {
  /** A warning: a refused request, a risky setup. Never carries a secret. */
  warn(message: string, details?: Record<string, unknown>): void;
  /** A failure of a run the adapter started (default: written with `console.error`). */
  error?(message: string, details?: Record<string, unknown>): void;
}

/** What woke the agent up, handed to `onEvent` with the input. */
export interface TriggerEvent {
  trigger: 'webhook' | 'slack' | 'cron';
  /**
   * A session made for this event and owned by the adapter's `owner` (default: the HTTP handler's
   * anonymous principal), so a run started in it shows up over HTTP like any other session and
   * can pause for approvals there. Pass it on: `agent.send(input, { sessionId: event.sessionId })`.
   */
  sessionId: string;
  /** The parsed request body (webhook, Slack), or `{ scheduledAt }` (cron). */
  payload: unknown;
}

/** Runs the agent for one event; what it returns is what `onResult` and webhook answers see. */
export type TriggerHandler = (input: AgentInput, event: TriggerEvent) => unknown;

/** The part every adapter shares: `listen()` wires the agent, `stop()` frees the port or timer. */
export interface TriggerAdapter {
  /** Starts listening (a server, a timer) and runs `onEvent` for each event (default: `agent.send(input)` in the event's session). Throws `LOUSHO_TRIGGER_STATE` when already listening. */
  listen(agent: TriggerAgent, onEvent?: TriggerHandler): Promise<void>;
  /** Stops listening: frees the port or clears the timer; work in progress finishes first. */
  stop(): Promise<void>;
}

/** Options every adapter takes. */
export interface TriggerOptions {
  /** The principal that owns the sessions of this trigger's runs. Default `'anonymous'`. */
  owner?: string;
  logger?: TriggerLogger;
}

/** Without `onEvent`, an adapter runs the agent in the event's session. */
export function defaultHandler(agent: TriggerAgent): TriggerHandler {
  return (input, event) => agent.send(input, { sessionId: event.sessionId, metadata: { trigger: event.trigger } });
}

/** A new session for an event, created in the agent's store and owned by `owner`. */
export async function openSession(agent: TriggerAgent, trigger: TriggerEvent['trigger'], owner: string | undefined, sessionId?: string): Promise<string> {
  const id = sessionId ?? `${trigger}-${randomUUID()}`;
  await agent.sessions.create(id, { owner: owner ?? ANONYMOUS_PRINCIPAL });
  return id;
}

export function isExecutionResult(value: unknown): value is ExecutionResult {
  return typeof value === 'object' && value !== null && typeof (value as ExecutionResult).finishReason === 'string' && typeof (value as ExecutionResult).sessionId === 'string';
}

export const consoleLogger: TriggerLogger = {
  warn: (message, details) => console.warn(message, ...(details ? [details] : [])),
  error: (message, details) => console.error(message, ...(details ? [details] : [])),
};
