import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqliteStore } from '@lousho/sqlite';
import { durableSuite } from './suite.js';

const dir = mkdtempSync(join(tmpdir(), 'lousho-flows-sqlite-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

durableSuite({
  name: 'SQLite',
  async open() {
    const file = join(dir, `flows-${++files}.db`);
    const opened: SqliteStore[] = [new SqliteStore(file)];
    return {
      one: opened[0]!,
      another: async () => {
        const store = new SqliteStore(file);
        opened.push(store);
        return store;
      },
      close: async () => opened.forEach((store) => store.close()),
    };
  },
});
