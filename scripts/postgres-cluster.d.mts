/** Types of scripts/postgres-cluster.mjs (used by the tests and the benchmarks). */
export interface Cluster {
  /** `postgres://lousho@127.0.0.1:<port>/lousho` (no password: the cluster trusts loopback). */
  url: string;
  dir: string;
  port: number;
}
export function pgBinDir(): string | undefined;
export function startCluster(): Promise<Cluster>;
export function stopCluster(dir: string): void;
export function startServer(dir: string, port: number): void;
export function stopServer(dir: string): void;
