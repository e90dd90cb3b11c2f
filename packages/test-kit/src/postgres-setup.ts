/**
 * Vitest globalSetup of the projects with PostgreSQL tests (@lousho/postgres, flows): makes a
 * database available to them (`inject('postgres')`, read by postgres-env.ts):
 *   - DATABASE_URL when it is set (each test file then works in a schema of its own);
 *   - else a throwaway cluster (scripts/postgres-cluster.mjs) when PostgreSQL is installed,
 *     stopped and removed after the run;
 *   - else, outside CI, the PostgreSQL tests skip with one line saying why; with CI=true they fail.
 * The cluster is only started when the run's file filters can reach the project's tests.
 */
import { join, relative, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgBinDir, startCluster, stopCluster } from '../../../scripts/postgres-cluster.mjs';

export type PostgresContext = { url: string; external: boolean } | { skip: string } | { error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresContext;
  }
}

/** True when the run's file filters (if any) can match a PostgreSQL test or a file in the project's test folder. */
function wanted(project: TestProject): boolean {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (!filters || filters.length === 0) return true;
  const sample = join(project.config.root, 'test', 'x.test.ts');
  return filters.some((f) => f.includes('postgres') || sample.includes(resolve(f)) || sample.includes(f) || relative(process.cwd(), sample).includes(f));
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) {
    project.provide('postgres', { url: fromEnv, external: true });
    return undefined;
  }
  if (!wanted(project)) {
    project.provide('postgres', { skip: 'not part of this run' });
    return undefined;
  }
  if (!pgBinDir()) {
    const why = 'PostgreSQL is not installed and DATABASE_URL is not set (install it with `apt-get install postgresql`, or set DATABASE_URL)';
    if (ci) {
      project.provide('postgres', { error: `CI=true: ${why}.` });
    } else {
      console.log(`[postgres] Skipping the PostgreSQL tests: ${why}.`);
      project.provide('postgres', { skip: why });
    }
    return undefined;
  }
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  try {
    cluster = await startCluster();
  } catch (error) {
    // Installed but unusable: never a silent skip.
    project.provide('postgres', { error: `Could not start a throwaway PostgreSQL cluster: ${(error as Error).message}` });
    return undefined;
  }
  project.provide('postgres', { url: cluster.url, external: false });
  return () => stopCluster(cluster.dir);
}
