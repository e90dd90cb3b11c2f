/** Types of scripts/postgres-cluster.mjs (used by the tests and the benchmarks). */
export interface Cluster {
  /** `postgres://lousho@127.0.0.1:<port>/lousho` (no password: the cluster trusts loopback). */
  url: string;
  dir: string;
  port: number;
}
export function pgBinDir(): string | undefined;
export interface ClusterOptions {
  /** Commits are in the WAL before they are answered (default: off, for speed). Kept across restarts. */
  synchronousCommit?: boolean;
}
export function startCluster(options?: ClusterOptions): Promise<Cluster>;
export function stopCluster(dir: string): void;
export function startServer(dir: string, port: number): void;
/** `fast` (default): a clean shutdown that cuts sessions off; `immediate`: every server process ends at once, like a crash. */
export function stopServer(dir: string, mode?: 'fast' | 'immediate'): void;
