import type { PendingApprovalInfo } from '@lousho/protocol';
import type { SessionStatus, SessionRecord } from '@lousho/protocol';
import { fromJson } from './json-text.js';
import { tallyUsage, usageOfTally, type SessionUsageTally } from './session-usage.js';
import type { AgentStreamEvent } from '@lousho/protocol';
import type { EventToAppend } from '@lousho/protocol';

/** A number column; PostgreSQL's bigint arrives as a string (node-postgres keeps 64-bit precision), and ours fit in a double. */
export const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));

/** A row of `lousho_sessions`: the same columns in the SQLite and the PostgreSQL store. */
export interface SessionRow {
  id: string;
  owner: string | null;
  status: string;
  pending_approval: string | null;
  run_start_index: number;
  last_seq: string | number;
  created_at: string | number;
  updated_at: string | number;
  /** Since schema 2 (an older row set has none). */
  title?: string | null;
  /** Since schema 3: the JSON of the session's `SessionUsageTally` (plain: token counts, not content). */
  usage?: string | null;
}

/** The `usage` column after `events` are appended to a session whose column holds `current`; undefined when they change nothing. */
export function usageColumnAfter(current: string | null | undefined, events: readonly (EventToAppend | AgentStreamEvent)[]): string | undefined {
  const tally = fromJson<SessionUsageTally>(current ?? null);
  const next = tallyUsage(tally, events);
  return next === tally ? undefined : JSON.stringify(next);
}

/** The `SessionRecord` a `lousho_sessions` row stands for. */
export function sessionRecordOf(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    ...(row.owner !== null ? { owner: row.owner } : {}),
    status: row.status as SessionStatus,
    pendingApproval: fromJson<PendingApprovalInfo>(row.pending_approval) ?? null,
    runStartIndex: row.run_start_index,
    lastSeq: num(row.last_seq),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    ...(row.title != null ? { title: row.title } : {}),
    ...(row.usage != null ? { usage: usageOfTally(fromJson<SessionUsageTally>(row.usage))! } : {}),
  };
}
