import type { PendingApprovalInfo } from '@lousho/protocol';
import type { SessionStatus, SessionRecord } from '@lousho/protocol';
import { fromJson } from './json-text.js';

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
  };
}
