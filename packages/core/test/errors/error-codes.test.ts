import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorDocsUrl } from '@lousho/protocol';
import { CLIENT_ERROR_CODES } from '@lousho/protocol';
import { EVENT_STREAM_ERROR_CODES } from '@lousho/protocol';
import * as core from '../../src/index.js';

// One error system: every `LOUSHO_...` code written anywhere in the packages' sources is in
// ERROR_CODES, and docs/errors.md has one entry for it (what happened, what to do).

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

/** `LOUSHO_` names that are environment variables, not error codes. */
const ENVIRONMENT_VARIABLES = new Set([
  'LOUSHO_MODEL', // the model string the demos and providerFromEnv() read
  'LOUSHO_SHUTDOWN_TIMEOUT_MS', // how long `lousho build`'s server drains on SIGTERM
  'LOUSHO_SANDBOX_RUN', // the tag SubprocessSandbox finds a command's processes by
  'LOUSHO_DEMO_CALL_IDS', // how the demo model numbers its tool calls (random, or per response)
  'LOUSHO_ATTR', // not a code: the tracing stage's table of `lousho.*` span attribute names
]);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|js|mjs|svelte|vue)$/.test(name)) out.push(path);
  }
  return out;
}

/** Every `LOUSHO_X` token of every package's src (a prefix such as `LOUSHO_STREAM_` in a regex is not a code). */
function codesInSources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const pkg of readdirSync(join(repo, 'packages'))) {
    const src = join(repo, 'packages', pkg, 'src');
    if (!statSync(join(repo, 'packages', pkg)).isDirectory() || !exists(src)) continue;
    for (const file of sourceFiles(src)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bLOUSHO_[A-Z0-9_]*[A-Z0-9]\b(?!_)/g)) {
        if (!ENVIRONMENT_VARIABLES.has(m[0]) && !found.has(m[0])) found.set(m[0], relative(repo, file));
      }
    }
  }
  return found;
}

function exists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const docs = readFileSync(join(repo, 'docs/errors.md'), 'utf8');
/** docs/errors.md's entries: `<a id="lousho-x"></a>` then `#### \`LOUSHO_X\`` then the text. */
const entries = [...docs.matchAll(/<a id="([^"]+)"><\/a>\n#### `(LOUSHO_[A-Z0-9_]+)`\n\n([^\n]+)/g)].map((m) => ({ anchor: m[1]!, code: m[2]!, text: m[3]! }));

describe('ERROR_CODES is the one table of codes', () => {
  it('each code is its own key', () => {
    for (const [key, value] of Object.entries(ERROR_CODES)) expect(value).toBe(key);
  });

  it('the package root exports it', () => {
    expect(core.ERROR_CODES).toBe(ERROR_CODES);
  });

  it('every code the sources use is in it', () => {
    const found = codesInSources();
    expect(found.size).toBeGreaterThan(60);
    const missing = [...found].filter(([code]) => !(code in ERROR_CODES)).map(([code, file]) => `${code} (${file})`);
    expect(missing).toEqual([]);
  });

  it('the smaller tables (client, stream parser, deprecated ones; the http tool\'s is tested in @lousho/tools) hold only codes of it, with the same values', () => {
    const tables = { CLIENT_ERROR_CODES, EVENT_STREAM_ERROR_CODES, ...deprecatedTables() };
    for (const [name, table] of Object.entries(tables)) {
      for (const value of Object.values(table)) expect(ERROR_CODES, `${name}: ${value}`).toHaveProperty(value, value);
    }
    // The browser client's two tables are whole in ERROR_CODES.
    expect(Object.keys(CLIENT_ERROR_CODES).length + Object.keys(EVENT_STREAM_ERROR_CODES).length).toBe(15);
  });
});

describe('docs/errors.md documents every code once', () => {
  it('has one entry per code of ERROR_CODES, and none for a code that does not exist', () => {
    const documented = entries.map((e) => e.code);
    expect(new Set(documented).size, 'a code documented twice').toBe(documented.length);
    expect([...documented].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it("each entry's anchor is the error's docs link, and it says what happened and what to do", () => {
    for (const { anchor, code, text } of entries) {
      expect(errorDocsUrl(code).endsWith(`#${anchor}`), code).toBe(true);
      const [happened, todo] = text.split('**What to do:**');
      expect(happened!.trim().length, `${code}: what happened`).toBeGreaterThan(20);
      expect(todo?.trim().length ?? 0, `${code}: what to do`).toBeGreaterThan(5);
    }
  });
});

function deprecatedTables(): Record<string, Record<string, string>> {
  return {
    PROVIDER_ERROR_CODES: core.PROVIDER_ERROR_CODES,
    STORE_ERROR_CODES: core.STORE_ERROR_CODES,
    HTTP_ERROR_CODES: core.HTTP_ERROR_CODES,
  };
}
