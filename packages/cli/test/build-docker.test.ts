import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { validate } from 'dockerfile-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_IMAGE } from '../src/index.js';
import { fixture, lousho, tempDir } from './helpers.js';

let out: string;
let text: string;

beforeAll(async () => {
  out = join(await tempDir(), 'image');
  const result = await lousho(['build', fixture('agent.ts'), '--target', 'docker', '--out', out, '--conditions', '@lousho/source']);
  expect(result.code).toBe(0);
  text = await readFile(join(out, 'Dockerfile'), 'utf8');
}, 60_000);

/** Instructions as [keyword, rest] pairs (comments and blank lines dropped). */
const instructions = () =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.trim().split(/\s+/);
      return [keyword!.toUpperCase(), rest.join(' ')] as const;
    });

describe('lousho build --target docker', () => {
  it('writes a build context: the server bundle, its package.json, the healthcheck, Dockerfile and .dockerignore', async () => {
    for (const file of ['server.mjs', 'package.json', 'healthcheck.mjs', 'Dockerfile', '.dockerignore']) await expect(readFile(join(out, file))).resolves.toBeDefined();
    // Every file the Dockerfile copies from the context exists.
    const copied = instructions()
      .filter(([k, rest]) => k === 'COPY' && !rest.includes('--from'))
      .flatMap(([, rest]) => rest.split(' ').filter((word) => !word.startsWith('--')).slice(0, -1));
    for (const file of copied) await expect(readFile(join(out, file))).resolves.toBeDefined();
  });

  it('passes dockerfile-utils validation (syntax, flags, arguments)', () => {
    expect(validate(text).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('passes dockerfilelint with no issues', async () => {
    const bin = join(createRequire(import.meta.url).resolve('dockerfilelint/package.json'), '..', 'bin', 'dockerfilelint');
    const { stdout } = await promisify(execFile)(process.execPath, [bin, '-o', 'json', join(out, 'Dockerfile')]).catch((error: { stdout: string }) => error);
    expect(JSON.parse(stdout)).toMatchObject({ totalIssues: 0 });
  });

  // The hadolint rules that apply to this file, checked here since hadolint itself is not installable.
  it('follows the hadolint rules: pinned base images, multi-stage, non-root, exec-form CMD, COPY over ADD', () => {
    const list = instructions();
    const froms = list.filter(([k]) => k === 'FROM').map(([, rest]) => rest);
    expect(froms).toEqual([`${NODE_IMAGE} AS deps`, `${NODE_IMAGE} AS runtime`]); // multi-stage
    for (const from of froms) {
      const image = from.split(' ')[0]!;
      expect(image).toMatch(/:[\w.-]+$/); // DL3006: tagged
      expect(image).not.toMatch(/:latest$/); // DL3007
    }
    const users = list.filter(([k]) => k === 'USER').map(([, rest]) => rest);
    expect(users.at(-1)).toBe('node'); // DL3002: the last USER is not root
    expect(list.findIndex(([k]) => k === 'USER')).toBeGreaterThan(list.map(([k]) => k).lastIndexOf('FROM'));
    expect(list.some(([k]) => k === 'ADD')).toBe(false); // DL3020
    expect(list.some(([k]) => k === 'MAINTAINER')).toBe(false); // DL4000
    for (const [k, rest] of list.filter(([k]) => k === 'CMD' || k === 'ENTRYPOINT' || k === 'HEALTHCHECK')) {
      expect(rest.slice(rest.indexOf('[')).startsWith('['), k).toBe(true); // DL3025: JSON form
    }
    for (const [, rest] of list.filter(([k]) => k === 'WORKDIR')) expect(rest.startsWith('/')).toBe(true); // DL3000
    for (const [, rest] of list.filter(([k]) => k === 'RUN')) {
      expect(rest).not.toMatch(/\bcd\s/); // DL3003: WORKDIR, not cd
      expect(rest).not.toMatch(/\bsudo\b/); // DL3004
      expect(rest).not.toMatch(/npm install\s+[a-z@]/); // DL3016: no unpinned packages on the command line
    }
    expect(list.filter(([k]) => k === 'CMD')).toHaveLength(1); // DL4003
    expect(list.some(([k]) => k === 'HEALTHCHECK')).toBe(true);
    expect(list.some(([k, rest]) => k === 'COPY' && rest.includes('--from=deps') && rest.includes('--chown=node:node'))).toBe(true);
  });

  it('.dockerignore keeps local node_modules out of the context', async () => {
    expect((await readFile(join(out, '.dockerignore'), 'utf8')).split('\n')).toContain('node_modules');
  });
});
