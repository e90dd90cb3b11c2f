/** The results file (`packages/bench/results/latest.json`): each benchmark writes its own section. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = fileURLToPath(new URL('../results/latest.json', import.meta.url));

/** The machine a result was measured on. */
export function machine(): { nproc: number; cpu: string; node: string; platform: string } {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpu;
  } catch {
    // Not Linux: os.cpus() is good enough.
  }
  return { nproc: cpus().length, cpu, node: process.version, platform: `${process.platform} ${process.arch}` };
}

/** Replaces one section of the results file, keeping the others. */
export function writeResultSection(name: string, value: unknown): void {
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // First run: start a new file.
  }
  all.machine = machine();
  all[name] = { measuredAt: new Date().toISOString(), ...(value as object) };
  mkdirSync(fileURLToPath(new URL('../results/', import.meta.url)), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(all, null, 2)}\n`);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
