/** Debian's Chromium through playwright-core (never a downloaded browser), with a fresh profile. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM_PATH = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-quic', '--no-first-run', '--disable-sync'];

export async function launchChromium(): Promise<{ context: any; version: string; close(): Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'lousho-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: false, args: ARGS });
  const version = context.browser()?.version() ?? 'unknown';
  return {
    context,
    version,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
