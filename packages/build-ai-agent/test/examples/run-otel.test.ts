import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const tsx = fileURLToPath(new URL('../../../core/node_modules/.bin/tsx', import.meta.url));
const example = fileURLToPath(new URL('../../examples/tracing/run-otel.ts', import.meta.url));

interface PrintedSpan {
  name: string;
  id: string;
  parentId: string | undefined;
  traceId: string;
  block: string;
}

/** The spans the console exporter printed (one top-level object each). */
function printedSpans(stdout: string): PrintedSpan[] {
  const blocks = stdout.split(/^(?=\{$)/m).filter((b) => b.startsWith('{'));
  return blocks.map((block) => ({
    name: /^ {2}name: '([^']+)'/m.exec(block)![1]!,
    id: /^ {2}id: '([0-9a-f]+)'/m.exec(block)![1]!,
    traceId: /^ {2}traceId: '([0-9a-f]+)'/m.exec(block)![1]!,
    parentId: /parentSpanContext: \{[^}]*spanId: '([0-9a-f]+)'/m.exec(block)?.[1],
    block,
  }));
}

describe('examples/tracing/run-otel.ts', () => {
  it('runs offline and prints the run as GenAI spans with the SDK console exporter', async () => {
    const { stdout } = await promisify(execFile)(tsx, ['--conditions=@lousho/source', example], { cwd: fileURLToPath(new URL('../..', import.meta.url)) });
    expect(stdout).toContain('Paris is warmer (21 °C) than Oslo (4 °C).');
    const spans = printedSpans(stdout);
    expect(spans.map((s) => s.name).sort()).toEqual(['chat mock-model', 'chat mock-model', 'execute_tool get_weather', 'execute_tool get_weather', 'invoke_agent travel-assistant', 'plan trip']);
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const root = byName('plan trip')[0]!;
    const run = byName('invoke_agent travel-assistant')[0]!;
    expect(root.parentId).toBeUndefined();
    expect(run.parentId).toBe(root.id);
    for (const child of [...byName('chat mock-model'), ...byName('execute_tool get_weather')]) expect(child.parentId).toBe(run.id);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(byName('chat mock-model')[0]!.block).toMatch(/'gen_ai\.usage\.input_tokens': 120/);
    expect(run.block).toMatch(/'gen_ai\.usage\.output_tokens': 44/);
  }, 60_000);
});
