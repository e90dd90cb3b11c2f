import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDemoAgent, createDemoModel, DEMO_PROJECT_FILES } from '../src/index.js';
import { createDemoCoding } from '../src/server/index.js';

// The demo server's coding tools: a real project in a BubblewrapSandbox where bubblewrap is (CI
// installs it: there these tests must run), the in-memory project, said plainly, where it is not.
const bwrap = existsSync('/usr/bin/bwrap');
if (!bwrap && process.env.CI !== 'true') console.warn('bubblewrap (/usr/bin/bwrap) is not installed: the sandboxed demo coding test is skipped.');

describe("the demo server's coding tools", () => {
  it.skipIf(!bwrap && process.env.CI !== 'true')('with bubblewrap: the tests really run, in a sandbox confined to a copy of the project', async () => {
    const coding = await createDemoCoding();
    try {
      expect(coding.sandbox).toBe('bubblewrap');
      expect(coding.note).toMatch(/bubblewrap sandbox/);
      const agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }), toolDelayScale: 0, coding });
      const failing = await agent.send('Run the tests');
      expect(failing.toolCalls[0]).toMatchObject({ toolName: 'shell', args: { command: 'npm test' }, result: { exitCode: 1 } });
      expect(JSON.stringify(failing.toolCalls[0]!.result)).toMatch(/AssertionError.*'Helo, Ada!'/);
      await agent.send('Fix the typo');
      const root = coding.note.match(/in (\/\S+);/)![1]!;
      expect(readFileSync(join(root, 'src/greet.js'), 'utf8')).toBe(DEMO_PROJECT_FILES['src/greet.js']!.replace('Helo,', 'Hello,'));
      const passing = await agent.send('Run the tests again');
      expect(passing.toolCalls[0]).toMatchObject({ result: { exitCode: 0, stdout: expect.stringContaining('1 test passed') } });
      // The sandbox: the command sees the project, not this machine's home or other files.
      const peek = await coding.shell.exec(`ls ${process.cwd()} ; ls ~ ; pwd`);
      expect(peek.stdout.trim().split('\n').at(-1)).toBe(root);
      expect(peek.stderr).toContain(`${process.cwd()}': No such file or directory`);
      await agent.close();
    } finally {
      await coding.dispose();
    }
  });

  it('without bubblewrap: the in-memory project, and a note that says nothing runs for real', async () => {
    const coding = await createDemoCoding({ bwrap: '/nonexistent/bwrap' });
    expect(coding.sandbox).toBe('none');
    expect(coding.note).toMatch(/bubblewrap is not installed, so nothing runs for real/);
    const agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }), toolDelayScale: 0, coding });
    const failing = await agent.send('Run the tests');
    expect(failing.toolCalls[0]).toMatchObject({ result: { exitCode: 1 } });
    await agent.close();
  });
});
