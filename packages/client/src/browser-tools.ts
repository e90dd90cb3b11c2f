import type { AgentClient, AgentClientOptions } from './types.js';

// Runs the handlers of browser tools (`AgentClientOptions.browserTools`). Loaded by the client the
// first time a run pauses on a browser tool's call, so a page whose agent has none never loads it.

/** Calls whose handler this page started: each runs once, however often the paused state is seen. */
const started = new WeakMap<AgentClient, Set<string>>();

/**
 * Runs the handler of the browser tool call the client's run is paused on, once per call and client, and
 * sends its result (or the message of what it threw) with `submitToolResult`. A call of a tool with
 * no handler is left to the app. A refusal (another tab answered first, a result that fails the
 * tool's schema) reaches `onError`, and the call is not run again here.
 */
export async function runBrowserTool(client: AgentClient, options: AgentClientOptions): Promise<void> {
  const pending = client.getSnapshot().pendingApproval;
  const handler = pending?.kind === 'client' ? options.browserTools?.[pending.toolName] : undefined;
  if (!pending || typeof handler !== 'function') return;
  const seen = started.get(client) ?? new Set<string>();
  started.set(client, seen);
  if (seen.has(pending.toolCallId)) return;
  seen.add(pending.toolCallId);
  const { toolCallId } = pending;
  let result: unknown;
  try {
    // (A handler that returns nothing sends `null`: JSON has no `undefined`.)
    result = (await handler(pending.args, { toolCallId })) ?? null;
  } catch (error) {
    await client.submitToolResult(toolCallId, undefined, { error: messageOf(error) });
    return;
  }
  await client.submitToolResult(toolCallId, result);
}

/** What the model is told of a handler's failure: the message only (capped), never a stack. */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message || 'The browser tool failed.').slice(0, 1_000);
}
