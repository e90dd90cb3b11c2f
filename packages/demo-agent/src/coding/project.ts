import { MemoryWorkspace, type ScriptedExecContext, type ScriptedResult } from '@lousho/build-ai-agent';

/** The tiny project the coding tools work on: a greeting with a typo, and its test. */
export const DEMO_PROJECT_FILES: Readonly<Record<string, string>> = Object.freeze({
  'README.md': '# hello-lousho\n\nA tiny project for the coding demo: `greet(name)` says hello.\n\nRun the tests with `npm test`.\n',
  'package.json': '{\n  "name": "hello-lousho",\n  "version": "1.0.0",\n  "type": "module",\n  "scripts": { "test": "node test/greet.test.js" }\n}\n',
  'src/greet.js': "export function greet(name) {\n  return `Helo, ${name}!`;\n}\n",
  'test/greet.test.js': "import assert from 'node:assert';\nimport { greet } from '../src/greet.js';\n\nassert.equal(greet('Ada'), 'Hello, Ada!');\nconsole.log('1 test passed');\n",
});

/** The typo the demo fixes, and its fix. */
export const DEMO_TYPO = { path: 'src/greet.js', old_string: 'Helo,', new_string: 'Hello,' } as const;

/**
 * `npm test` in the demo workspace: it passes once the typo is fixed. The commands are scripted (a
 * MemoryWorkspace runs nothing), so the demo works offline and in a browser.
 */
async function npmTest({ workspace }: ScriptedExecContext): Promise<ScriptedResult> {
  const source = new TextDecoder().decode(await workspace.readFile('src/greet.js'));
  if (source.includes('`Hello, ${name}!`')) return { stdout: '> hello-lousho@1.0.0 test\n> node test/greet.test.js\n\n1 test passed\n' };
  return {
    exitCode: 1,
    stdout: '> hello-lousho@1.0.0 test\n> node test/greet.test.js\n',
    stderr: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n'Helo, Ada!' !== 'Hello, Ada!'\n",
  };
}

/** A fresh workspace holding the demo project (one per agent: edits stay with that agent). */
export function createDemoWorkspace(): MemoryWorkspace {
  return new MemoryWorkspace({
    root: '/workspace/hello-lousho',
    files: { ...DEMO_PROJECT_FILES },
    exec: {
      'npm test': npmTest,
      ls: 'README.md\npackage.json\nsrc\ntest\n',
    },
  });
}
