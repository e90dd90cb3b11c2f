import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_MODEL_NOTICE } from '@lousho/demo-agent';
import { chooseModel } from '../src/model.js';

describe('chooseModel', () => {
  it('uses the offline demo model when no model is configured', () => {
    const chosen = chooseModel({});
    expect(chosen.provider).toBeUndefined();
    expect(chosen.info.kind).toBe('demo');
    expect(chosen.info.notice).toBe(DEMO_MODEL_NOTICE);
    expect(chosen.warning).toBeUndefined();
  });

  it('falls back to the demo model, with a warning, when the configured model has no key', () => {
    const chosen = chooseModel({ LOUSHO_MODEL: 'openai/gpt-4o-mini' });
    expect(chosen.info.kind).toBe('demo');
    expect(chosen.warning).toContain('openai/gpt-4o-mini');
  });

  it('uses the configured real model when its key is set, and says so', () => {
    const chosen = chooseModel({ LOUSHO_MODEL: 'openai/gpt-4o-mini', OPENAI_API_KEY: 'sk-test' });
    expect(chosen.provider).toBeDefined();
    expect(chosen.info).toMatchObject({ kind: 'real', model: 'gpt-4o-mini' });
    expect(chosen.info.notice).toContain('gpt-4o-mini');
  });

  it('does not hide a typo in LOUSHO_MODEL behind the demo model', () => {
    expect(() => chooseModel({ LOUSHO_MODEL: 'no-such-provider/x' })).toThrow();
  });
});

describe('a LOUSHO_MODEL the server cannot use', () => {
  const serverDir = fileURLToPath(new URL('..', import.meta.url));
  /** The real server's start, as `npm run demo` runs it, with `LOUSHO_MODEL` set. */
  const start = (model: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@lousho/source', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, LOUSHO_MODEL: model, PORT: '0', DEMO_DATA_DIR: mkdtempSync(join(tmpdir(), 'lousho-demo-model-')), OPENAI_API_KEY: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('stops the server with one line that suggests the provider meant, and no stack trace', () => {
    const result = start('opnai/gpt-4o-mini');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      'LOUSHO_MODEL: Unknown provider "opnai" in model string "opnai/gpt-4o-mini": did you mean "openai"? Known providers: anthropic, ollama, openai, openrouter.',
    ]);
  }, 60_000);

  it('says how to write a malformed one', () => {
    const result = start('gpt-4o-mini/');
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('Write it like "openai/gpt-4o-mini"');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);
});
