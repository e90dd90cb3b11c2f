import { describe, expect, it } from 'vitest';
import { changedLineCount, createDiffSizeGuardrail, scanSecrets, secretScanGuardrail, type GuardrailResult } from '../../src/index.js';

// Key-shaped values are built at run time from a seeded generator, so no real-looking secret sits in
// the repository (and no scanner of ours or anyone else's flags this file).
function random(seed: number) {
  // mulberry32
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet: string, length: number) => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  };
}
const r = random(42);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;

const SECRETS: [rule: string, text: string][] = [
  ['aws-access-key-id', `AKIA${r(UPPER32, 16)}`],
  ['aws-access-key-id', `export AWS_ACCESS_KEY_ID=ASIA${r(UPPER32, 16)}`],
  ['aws-secret-access-key', `aws_secret_access_key = ${r(B64, 40)}`],
  ['github-token', `token: ghp_${r(ALNUM, 36)}`],
  ['github-token', `gho_${r(ALNUM, 36)}`],
  ['github-token', `github_pat_${r(ALNUM, 22)}_${r(ALNUM, 59)}`],
  ['gitlab-token', `glpat-${r(URLSAFE, 20)}`],
  ['slack-token', `xoxb-${r('0123456789', 12)}-${r('0123456789', 13)}-${r(ALNUM, 24)}`],
  ['slack-webhook', `https://hooks.slack.com/services/T${r(UPPER32, 8)}/B${r(UPPER32, 8)}/${r(ALNUM, 24)}`],
  ['stripe-key', `sk_live_${r(ALNUM, 24)}`],
  ['stripe-key', `rk_test_${r(ALNUM, 30)}`],
  ['openai-key', `OPENAI_API_KEY=sk-proj-${r(URLSAFE, 120)}`],
  ['openai-key', `sk-${r(ALNUM, 20)}T3BlbkFJ${r(ALNUM, 20)}`],
  ['anthropic-key', `sk-ant-api03-${r(URLSAFE, 93)}AA`],
  ['google-api-key', `AIza${r(URLSAFE, 35)}`],
  ['google-oauth-secret', `GOCSPX-${r(URLSAFE, 28)}`],
  ['npm-token', `//registry.npmjs.org/:_authToken=npm_${r(ALNUM, 36)}`],
  ['huggingface-token', `hf_${r('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 34)}`],
  ['sendgrid-key', `SG.${r(URLSAFE, 22)}.${r(URLSAFE, 43)}`],
  ['azure-storage-key', `DefaultEndpointsProtocol=https;AccountName=x;AccountKey=${r(B64, 86)}==;`],
  ['private-key', `-----BEGIN RSA PRIVATE KEY-----\n${r(B64, 64)}\n-----END RSA PRIVATE KEY-----`],
  ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
  ['private-key', '-----BEGIN PRIVATE KEY-----'],
  ['private-key', '-----BEGIN EC PRIVATE KEY-----'],
  ['jwt', `Authorization: Bearer eyJ${r(URLSAFE, 30)}.eyJ${r(URLSAFE, 60)}.${r(URLSAFE, 43)}`],
  ['url-credentials', `DATABASE_URL=postgres://app:${r(ALNUM, 18)}@db.internal:5432/app`],
  ['generic-secret', `const apiKey = "${r(ALNUM, 32)}";`],
  ['generic-secret', `CLIENT_SECRET: ${r(ALNUM, 40)}`],
  ['generic-secret', `{"auth_token": "${r(URLSAFE, 40)}"}`],
];

const ORDINARY = [
  'The deploy finished in 42 seconds; see https://example.com/runs/1234.',
  'AKIAIOSFODNN7EXAMPLE is the example key from the AWS docs.',
  'password = "changeme"',
  'token = process.env.GITHUB_TOKEN',
  'const apiKey = getApiKey();',
  'secret: ${{ secrets.NPM_TOKEN }}',
  'api_key: <your-api-key>',
  'DATABASE_URL=postgres://user:password@localhost:5432/db',
  'postgres://app:${DB_PASSWORD}@db:5432/app',
  'import { skeleton } from "./sk-components";',
  'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
  'const token_count = estimateTokens(messages);',
  'The word "secret" appears in this sentence, and so does password.',
  'accessKey: AWS_ACCESS_KEY_ID',
  'uuid: 123e4567-e89b-12d3-a456-426614174000',
  'path=/usr/local/lib/node_modules/typescript/lib/tsc.js',
  'eyJhbGciOi is only the start of a header',
  '-----BEGIN CERTIFICATE-----',
  '-----BEGIN PUBLIC KEY-----',
  'passwordHash = bcrypt.hashSync(input, 10)',
  'secretName: my-app-database-credentials',
];

describe('scanSecrets', () => {
  it.each(SECRETS)('finds %s', (rule, text) => {
    expect(scanSecrets(text).map((f) => f.rule)).toEqual([rule]);
  });

  it.each(ORDINARY)('finds nothing in: %s', (text) => {
    expect(scanSecrets(text)).toEqual([]);
  });

  it('reports several secrets in order, each once', () => {
    const text = `first ghp_${r(ALNUM, 36)} then AKIA${r(UPPER32, 16)}`;
    expect(scanSecrets(text).map((f) => f.rule)).toEqual(['github-token', 'aws-access-key-id']);
  });

  it('stays linear on long runs of key-like characters', () => {
    const text = `token=${'a1'.repeat(200_000)}`;
    const started = performance.now();
    scanSecrets(text);
    // Not a benchmark: a catastrophic-backtracking pattern would take minutes here, not seconds.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe('secretScanGuardrail', () => {
  it('checks input, output and tool arguments, naming the kind but never the secret', () => {
    const key = `ghp_${r(ALNUM, 36)}`;
    const input = secretScanGuardrail.check({ stage: 'input', text: `use ${key}` }) as GuardrailResult;
    expect(input).toEqual({ block: 'the input contains a GitHub token.' });
    expect(secretScanGuardrail.check({ stage: 'output', text: key })).toEqual({ block: 'the reply contains a GitHub token.' });
    const tool = secretScanGuardrail.check({ stage: 'tool', toolName: 'write_file', args: { path: '.env', content: `GITHUB_TOKEN=${key}\n` } });
    expect(tool).toEqual({ block: "the arguments of 'write_file' contain a GitHub token." });
    expect(JSON.stringify([input, tool])).not.toContain(key.slice(4));
    // Keys and values of nested arguments are seen.
    expect(secretScanGuardrail.check({ stage: 'tool', toolName: 'http', args: { headers: [{ api_key: r(ALNUM, 32) }] } })).toBeDefined();
    expect(secretScanGuardrail.check({ stage: 'tool', toolName: 'shell', args: { command: 'ls -la' } })).toBeUndefined();
  });

  describe('tool arguments: every key and value, at any depth, never half-read', () => {
    const token = () => `ghp_${r(ALNUM, 36)}`;
    const check = (args: unknown) => secretScanGuardrail.check({ stage: 'tool', toolName: 'http', args }) as { block: string } | undefined;

    it('finds a secret nested deeper than 32 levels', () => {
      let args: unknown = { content: token() };
      for (let i = 0; i < 40; i++) args = { nested: args };
      expect(check(args)?.block).toContain('a GitHub token');
      let list: unknown = [token()];
      for (let i = 0; i < 5_000; i++) list = [list];
      expect(check(list)?.block).toContain('a GitHub token');
    });

    it('finds a secret used as an object key', () => {
      expect(check({ headers: { [token()]: true } })?.block).toContain('a GitHub token');
      expect(check({ env: { [token()]: { x: 1 } } })?.block).toContain('a GitHub token');
    });

    it('finds a secret after 10,000 other strings', () => {
      const filler = Array.from({ length: 10_001 }, (_, i) => `line ${i}`);
      expect(check({ lines: [...filler, token()] })?.block).toContain('a GitHub token');
      expect(check({ lines: filler })).toBeUndefined();
    });

    it('refuses arguments past its budget with LOUSHO_SECRET_SCAN_LIMIT instead of passing them unscanned', () => {
      const tooMany = { items: Array.from({ length: 100_001 }, () => 1) };
      expect(check(tooMany)?.block).toMatch(/^LOUSHO_SECRET_SCAN_LIMIT: the arguments of 'http' are too large/);
      expect(check({ content: 'a'.repeat(1_000_001) })?.block).toMatch(/^LOUSHO_SECRET_SCAN_LIMIT/);
      const shared = { x: 'plain text' };
      const cyclic: Record<string, unknown> = { a: shared, b: shared };
      cyclic.self = cyclic;
      expect(check(cyclic)).toBeUndefined();
    });
  });

  it('is a ready value', () => {
    expect(secretScanGuardrail.name).toBe('secret-scan');
    expect(Object.isFrozen(secretScanGuardrail)).toBe(true);
  });
});

describe('createDiffSizeGuardrail', () => {
  const call = (toolName: string, args: unknown, previousCalls: { toolName: string; args: unknown; isError: boolean }[] = []) => ({ stage: 'tool' as const, toolName, args, previousCalls });

  it('counts the lines an edit or a write changes', () => {
    expect(changedLineCount('a\nb\nc\n', 'a\nB\nc\n')).toBe(2);
    expect(changedLineCount('a\nb\n', 'a\nb\nc\nd\n')).toBe(2);
    expect(changedLineCount('same', 'same')).toBe(0);
    const g = createDiffSizeGuardrail({ maxLines: 3 });
    expect(g.check(call('edit_file', { path: 'a.ts', old_string: 'x\ny', new_string: 'x\nz' }))).toBeUndefined();
    expect(g.check(call('edit_file', { path: 'a.ts', old_string: 'a\nb', new_string: 'c\nd' }))).toEqual({ block: 'The change to a.ts touches 4 lines; at most 3 are allowed per change.' });
    expect(g.check(call('write_file', { path: 'b.ts', content: '1\n2\n3\n4\n' }))).toBeDefined();
    expect(g.check(call('write_file', { path: 'b.ts', content: '1\n2\n3\n' }))).toBeUndefined();
    expect(g.check(call('shell', { command: 'x' }))).toBeUndefined();
  });

  it('counts distinct files the run changed, failed calls not included', () => {
    const g = createDiffSizeGuardrail({ maxFiles: 2 });
    const earlier = [
      { toolName: 'write_file', args: { path: 'a.ts', content: '' }, isError: false },
      { toolName: 'edit_file', args: { path: './a.ts', old_string: 'x', new_string: 'y' }, isError: false },
      { toolName: 'edit_file', args: { path: 'c.ts', old_string: 'x', new_string: 'y' }, isError: true },
    ];
    expect(g.check(call('write_file', { path: 'b.ts', content: '' }, earlier))).toBeUndefined();
    expect(g.check(call('write_file', { path: 'a.ts', content: '' }, earlier))).toBeUndefined();
    expect(g.check(call('write_file', { path: 'b.ts', content: '' }, [...earlier, { toolName: 'write_file', args: { path: 'z.ts', content: '' }, isError: false }]))).toEqual({
      block: 'This run would change 3 files; at most 2 are allowed.',
    });
  });

  it('refuses a config without limits or with bad ones', () => {
    expect(() => createDiffSizeGuardrail({})).toThrow(/maxLines, maxFiles or both/);
    expect(() => createDiffSizeGuardrail({ maxLines: 0 })).toThrow(/positive integer/);
  });
});
