#!/usr/bin/env node
/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb into a temp folder, started on a
 * free loopback port (its unix socket inside that folder), with one database `lousho`.
 *
 *   node scripts/postgres-cluster.mjs start        prints `DATABASE_URL=... PGCLUSTER_DIR=...` and leaves it running
 *   node scripts/postgres-cluster.mjs stop <dir>   stops it and removes the folder
 *   node scripts/postgres-cluster.mjs available    exits 0 when the PostgreSQL binaries are installed
 *
 * Also a module: `startCluster()`, `stopCluster(dir)`, `pgBinDir()`. PostgreSQL refuses to run as
 * root, so when this process is root the server runs as the `postgres` OS user (Debian's packages
 * create it), owning the folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Where initdb / pg_ctl live: $PG_BIN when set (undefined if it has no pg_ctl), else the newest
 * /usr/lib/postgresql/<v>/bin, else the PATH.
 */
export function pgBinDir() {
  if (process.env.PG_BIN !== undefined) return existsSync(join(process.env.PG_BIN, 'pg_ctl')) ? process.env.PG_BIN : undefined;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  const found = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path.slice(0, path.lastIndexOf('/')) : undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
function run(bin, args, options = {}) {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

function chownTo(path, user) {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`There is no '${user}' OS user to run PostgreSQL as (install PostgreSQL from Debian's packages: apt-get install postgresql).`);
  const [, , uid, gid] = line.split(':');
  chownSync(path, Number(uid), Number(gid));
}

/**
 * Starts (with `pg_ctl start`) the cluster in `dir` on `port`, waiting until it accepts connections.
 * Durability is traded for speed (no fsync) unless the cluster was created with
 * `synchronousCommit: true` (kept in the folder, so a restart keeps it): then a commit is in the
 * WAL before it is answered, and an immediate stop (a crash, as PostgreSQL sees it) loses no
 * answered commit. The operating system still buffers the files (fsync stays off): only a power
 * cut could lose them, which no test simulates.
 */
export function startServer(dir, port) {
  const bin = pgBinDir();
  const data = join(dir, 'data');
  const synchronous = existsSync(join(dir, 'synchronous-commit')) ? 'on' : 'off';
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=${synchronous} -c full_page_writes=off -c max_connections=300`;
  run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', opts, '-w', '-t', '60', 'start']);
}

/**
 * Stops the server of the cluster in `dir`, keeping its files. `fast` (the default) cuts open
 * sessions off and shuts down cleanly; `immediate` ends every server process at once, like a
 * crash: the next start recovers from the WAL.
 */
export function stopServer(dir, mode = 'fast') {
  if (mode !== 'fast' && mode !== 'immediate') throw new Error(`stopServer: mode must be 'fast' or 'immediate', got ${String(mode)}.`);
  const bin = pgBinDir();
  run(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', mode, '-w', 'stop']);
}

/**
 * Creates and starts a cluster. Returns `{ url, dir, port }`; `url` has no password (the cluster
 * trusts loopback connections) and points at database `lousho`. With `{ synchronousCommit: true }`
 * every commit is in the WAL before it is answered (see `startServer`): the fault tests that stop
 * the server immediately need it.
 */
export async function startCluster(options = {}) {
  const bin = pgBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (no initdb/pg_ctl found); install it with `apt-get install postgresql`.');
  const dir = mkdtempSync(join(tmpdir(), 'lousho-pg-'));
  try {
    chmodSync(dir, 0o700);
    if (isRoot()) chownTo(dir, 'postgres');
    const user = 'lousho';
    run(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-U', user, '--auth=trust', '--encoding=UTF8', '--no-sync', '--no-instructions']);
    if (options.synchronousCommit === true) writeFileSync(join(dir, 'synchronous-commit'), 'on\n');
    const port = await freePort();
    startServer(dir, port);
    run(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, 'lousho']);
    writeFileSync(join(dir, 'port'), String(port));
    return { url: `postgres://${user}@127.0.0.1:${port}/lousho`, dir, port };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Stops the cluster in `dir` and removes the folder. Never throws (it is cleanup). */
export function stopCluster(dir) {
  if (!dir || !existsSync(join(dir, 'data'))) return;
  try {
    stopServer(dir);
  } catch {
    // Already stopped: remove the files anyway.
  }
  rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, dir] = process.argv.slice(2);
  if (command === 'start') {
    const cluster = await startCluster();
    process.stdout.write(`DATABASE_URL=${cluster.url}\nPGCLUSTER_DIR=${cluster.dir}\n`);
  } else if (command === 'stop') {
    stopCluster(dir);
  } else if (command === 'available') {
    process.exit(pgBinDir() ? 0 : 1);
  } else {
    process.stderr.write('usage: postgres-cluster.mjs start | stop <dir> | available\n');
    process.exit(2);
  }
}
