import { describe, expect, it } from 'vitest';
import * as root from '@lousho/build-ai-agent';
import * as otel from '@lousho/build-ai-agent/otel';
import * as vitestEntry from '@lousho/build-ai-agent/vitest';

// lousho-api-overview.md, "Flows, evals, observability and security": every name where the docs put it.
describe('evals and tracing are exported where the reference docs say', () => {
  it('the root has defineEval, the scorers and checks, llmJudge, runEval and withSpan', () => {
    for (const name of ['defineEval', 'exactMatch', 'toolCallOrder', 'budget', 'includes', 'atLeast', 'llmJudge', 'runEval', 'withSpan']) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
    }
    // TraceExporter is an interface: a value that satisfies it type-checks.
    const exporter: root.TraceExporter = root.noopTraceExporter;
    expect(typeof exporter.startSpan).toBe('function');
  });

  it('/otel has createOtelTraceExporter; /vitest has describeEval and runEval', () => {
    expect(typeof otel.createOtelTraceExporter).toBe('function');
    expect(typeof vitestEntry.describeEval).toBe('function');
    expect(vitestEntry.runEval).toBe(root.runEval);
  });
});
