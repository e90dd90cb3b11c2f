// A Vitest reporter that writes the detail of a run to the log file `LOUSHO_TEST_LOG` names (what
// `npm test` keeps off the terminal): one line per test file, every failing test with its errors,
// and every console line with the test that printed it.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { inspect, stripVTControlCharacters } from 'node:util';

const MARK = { passed: '✓', failed: '✗', skipped: '↓', pending: '…', queued: '…' };

export default class LogFileReporter {
  path = process.env.LOUSHO_TEST_LOG;
  vitest;
  counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };

  write(text) {
    // Plain text: Vitest colours a diff for a terminal.
    const plain = stripVTControlCharacters(text);
    if (this.path) appendFileSync(this.path, plain.endsWith('\n') ? plain : `${plain}\n`);
  }

  onInit(vitest) {
    this.vitest = vitest;
    this.write(`== vitest run in ${vitest.config.root} (${new Date().toISOString()})`);
  }

  name(moduleId) {
    return relative(this.vitest.config.root, moduleId);
  }

  onUserConsoleLog(log) {
    const entity = log.taskId ? this.vitest.state.getReportedEntityById(log.taskId) : undefined;
    const where = entity?.type === 'module' ? this.name(entity.moduleId) : entity ? `${this.name(entity.module.moduleId)} > ${entity.fullName}` : 'unknown test';
    this.write(`[${log.type}] ${where}\n${log.content.replace(/\n$/, '')}`);
  }

  onTestModuleEnd(testModule) {
    const tests = [...testModule.children.allTests()];
    const states = tests.map((test) => test.result().state);
    for (const state of states) this.counts[state] = (this.counts[state] ?? 0) + 1;
    const failed = states.filter((state) => state === 'failed').length;
    const skipped = states.filter((state) => state === 'skipped').length;
    const duration = Math.round(testModule.diagnostic().duration);
    const details = [`${tests.length} tests`, failed ? `${failed} failed` : '', skipped ? `${skipped} skipped` : ''].filter(Boolean).join(', ');
    this.write(`${MARK[testModule.state()] ?? '?'} [${testModule.project.name}] ${this.name(testModule.moduleId)} (${details}) ${duration} ms`);
    for (const error of testModule.errors()) this.write(indent(formatError(error)));
    for (const test of tests) {
      const result = test.result();
      if (result.state !== 'failed') continue;
      this.write(`  ✗ ${test.fullName}`);
      for (const error of result.errors ?? []) this.write(indent(formatError(error), 4));
    }
  }

  onTestRunEnd(_modules, unhandledErrors, reason) {
    for (const error of unhandledErrors) this.write(`Unhandled error:\n${indent(formatError(error))}`);
    const { passed, failed, skipped } = this.counts;
    this.write(`== vitest ${reason}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}

function formatError(error) {
  if (!error || typeof error !== 'object') return inspect(error);
  return [error.stack || `${error.name ?? 'Error'}: ${error.message}`, error.diff].filter(Boolean).join('\n');
}

function indent(text, spaces = 2) {
  return text.replace(/^/gm, ' '.repeat(spaces));
}
