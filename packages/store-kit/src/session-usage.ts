import type { AgentStreamEvent } from '@lousho/protocol';
import type { EventToAppend, SessionUsage } from '@lousho/protocol';
import type { RunUsage } from '@lousho/protocol';

/**
 * What a store keeps to count a session's usage: the total so far, and the run counted last with
 * its usage as counted. A run's `run.done` carries the run's running totals, so the `run.done` of a
 * continuation (after an approval, a resume) repeats the legs before it: only what it adds to the
 * run's last count is added to the total.
 */
export interface SessionUsageTally extends SessionUsage {
  /** The run counted last, and its usage as counted. */
  run?: { id: string; usage: SessionUsage };
}

const entryEvent = (entry: EventToAppend | AgentStreamEvent): { type: string; runId?: string; usage?: RunUsage | null } =>
  ('event' in entry ? { ...entry.event, runId: entry.runId } : entry) as { type: string; runId?: string; usage?: RunUsage | null };

/** Whether appending `entry` changes a session's usage: a run leg's end that knows the run's usage. */
export function countsUsage(entry: EventToAppend | AgentStreamEvent): boolean {
  const event = entryEvent(entry);
  return (event.type === 'run.done' || event.type === 'run.interrupted') && !!event.usage && event.runId !== undefined;
}

/** `usage` without what the tally does not show (and `costUsd` only when known). */
function counted(usage: SessionUsage): SessionUsage {
  const { inputTokens, outputTokens, totalTokens, costUsd } = usage;
  return { inputTokens, outputTokens, totalTokens, ...(costUsd !== undefined ? { costUsd } : {}) };
}

/** `a + sign * b`; the cost only while both are known. */
function add(a: SessionUsage, b: SessionUsage, sign: 1 | -1): SessionUsage {
  const cost = a.costUsd !== undefined && b.costUsd !== undefined ? a.costUsd + sign * b.costUsd : undefined;
  return counted({
    inputTokens: a.inputTokens + sign * b.inputTokens,
    outputTokens: a.outputTokens + sign * b.outputTokens,
    totalTokens: a.totalTokens + sign * b.totalTokens,
    ...(cost !== undefined ? { costUsd: Math.max(0, cost) } : {}),
  });
}

/**
 * The tally after `events` are appended: each `run.done` (and `run.interrupted` that knows its
 * usage) counts its run's usage once. The same tally object when the events change nothing, so a
 * store writes only when there is something new.
 */
export function tallyUsage(tally: SessionUsageTally | undefined, events: readonly (EventToAppend | AgentStreamEvent)[]): SessionUsageTally | undefined {
  let next = tally;
  for (const entry of events) {
    if (!countsUsage(entry)) continue;
    const event = entryEvent(entry) as { runId: string; usage: RunUsage };
    const run = counted(event.usage);
    const previous = next?.run?.id === event.runId ? next.run.usage : undefined;
    // A session's first run sets whether its cost is known; an unpriced run leaves it unknown from then on.
    const base: SessionUsage = next ? (previous ? add(next, previous, -1) : next) : { inputTokens: 0, outputTokens: 0, totalTokens: 0, ...(run.costUsd !== undefined ? { costUsd: 0 } : {}) };
    next = { ...add(base, run, 1), run: { id: event.runId, usage: run } };
  }
  return next;
}

/** The usage a thread list shows, from a tally (undefined without one). */
export const usageOfTally = (tally: SessionUsageTally | undefined): SessionUsage | undefined => (tally ? counted(tally) : undefined);
