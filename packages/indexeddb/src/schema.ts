/**
 * The database layout, as upgrade steps: step N brings a database from version N-1 to N. A released
 * step never changes; a new layout is a new step (and older packages then refuse the database with
 * `LOUSHO_STORE_VERSION` instead of misreading it).
 */
export const STORES = {
  sessions: 'sessions',
  events: 'events',
  checkpoints: 'checkpoints',
  messages: 'messages',
  runItems: 'runItems',
  approvals: 'approvals',
} as const;

const UPGRADES: readonly ((db: IDBDatabase) => void)[] = [
  // 1: sessions and their event logs, checkpoints (transcript rows + run state), approvals.
  (db) => {
    db.createObjectStore(STORES.sessions, { keyPath: 'id' });
    db.createObjectStore(STORES.events, { keyPath: ['sessionId', 'seq'] });
    db.createObjectStore(STORES.checkpoints, { keyPath: 'sessionId' });
    db.createObjectStore(STORES.messages, { keyPath: ['sessionId', 'idx'] });
    db.createObjectStore(STORES.runItems, { keyPath: ['sessionId', 'kind', 'idx'] });
    db.createObjectStore(STORES.approvals, { keyPath: 'approvalId' }).createIndex('bySession', 'sessionId');
  },
];

/** The schema version this package writes; a store written by a newer version is refused with `LOUSHO_STORE_VERSION`. */
export const SCHEMA_VERSION = UPGRADES.length;

/** Runs the steps from `oldVersion` up (inside the `upgradeneeded` transaction). */
export function upgrade(db: IDBDatabase, oldVersion: number): void {
  for (let version = oldVersion; version < SCHEMA_VERSION; version++) UPGRADES[version]!(db);
}
