import { beforeAll, describe, expect, it, vi } from 'vitest';

// The snippets of docs/workspace.md and docs/guardrails.md, verbatim in ./snippets: importing one
// runs it; the assertions check it did what the docs say.

describe('docs/workspace.md and docs/guardrails.md snippets run unchanged', () => {
  // The package's first load (its sources, transformed) is the slow part, not the snippets.
  beforeAll(() => import('@lousho/build-ai-agent'), 120_000);

  it('a coding agent on a MemoryWorkspace: edit_file changes the file, shell runs the scripted test', async () => {
    const { result, workspace } = await import('./snippets/workspace-coding-agent.js');
    expect(result.finishReason).toBe('stop');
    expect(result.toolCalls.map((c) => [c.toolName, c.isError])).toEqual([
      ['edit_file', false],
      ['shell', false],
    ]);
    expect(await workspace.readText('src/greet.js')).toBe('export const greet = (name) => `Hello, ${name}!`;\n');
    expect(workspace.commands.map((c) => c.command)).toEqual(['npm test']);
  });

  it('an input guardrail ends the run before any model call; runGuardrails by hand', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { result, modelCalls, block } = await import('./snippets/guardrails-stages.js');
    const printed = log.mock.calls.map((c) => c[0]);
    log.mockRestore();
    expect(result.finishReason).toBe('guardrail');
    expect(result.guardrail).toEqual({ name: 'no-passwords', stage: 'input', reason: 'Please do not paste passwords here.' });
    expect(modelCalls).toBe(0);
    expect(block).toMatchObject({ name: 'secret-scan', stage: 'output', reason: 'the reply contains an AWS access key id.' });
    expect(printed).toEqual(['guardrail', result.guardrail, 'the reply contains an AWS access key id.']);
  });

  it('the coding-agent shell: SandboxShell(new BubblewrapSandbox({ root })) next to the file tools of a NodeWorkspace', async () => {
    const { sandbox, tools } = await import('./snippets/workspace-bubblewrap.js');
    expect(sandbox.name).toBe('bubblewrap');
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'shell']);
  });

  it('a requiresSandbox tool runs its sandboxExecute with a SubprocessSandbox', async () => {
    const { result } = await import('./snippets/workspace-sandbox.js');
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'count_lines', isError: false, result: { lines: 3 } });
    expect(result.text).toBe('Three lines.');
  });
});
