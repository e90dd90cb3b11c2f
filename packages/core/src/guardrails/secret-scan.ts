import { ERROR_CODES } from '@lousho/protocol';
import type { Guardrail, GuardrailContext, GuardrailResult } from '@lousho/protocol';

/** A secret found in a text: what kind, and where (never the secret itself). */
export interface SecretFinding {
  /** Stable id of the rule that matched (`aws-access-key-id`, `github-token`, `private-key`, …). */
  rule: string;
  /** What was found, in words, for messages. */
  description: string;
  /** Offset of the match in the scanned text. */
  index: number;
}

interface SecretRule {
  id: string;
  description: string;
  pattern: RegExp;
  /** The capture group holding the secret (default: the whole match). */
  group?: number;
  /** Extra checks on the secret, to keep false positives down. */
  accept?: (secret: string, match: RegExpExecArray) => boolean;
}

/** Values that only stand in for a secret: examples, placeholders, masks, references. */
const PLACEHOLDER = /example|sample|placeholder|dummy|changeme|redacted|your[_-]?|xxxx|\*{3}|<[^>]*>|\$\{|\{\{|^\$[A-Z_]|process\.env|os\.environ/i;

/** Bits of entropy per character of `s` (Shannon). Random keys score above 3.5; words and paths below. */
export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function looksRandom(secret: string, minEntropy = 3.5): boolean {
  if (PLACEHOLDER.test(secret)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(secret)).length;
  return classes >= 2 && shannonEntropy(secret) >= minEntropy;
}

// Key formats from the providers' own documentation. Each is anchored on a prefix or a structure,
// so ordinary text does not match.
const RULES: SecretRule[] = [
  {
    id: 'private-key',
    description: 'a private key',
    pattern: /-----BEGIN[ A-Z0-9]{0,40} PRIVATE KEY(?: BLOCK)?-----/g,
  },
  {
    id: 'aws-access-key-id',
    description: 'an AWS access key id',
    pattern: /\b((?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16})\b/g,
    group: 1,
    accept: (key) => !key.endsWith('EXAMPLE'),
  },
  {
    id: 'aws-secret-access-key',
    description: 'an AWS secret access key',
    pattern: /aws.{0,24}?secret.{0,24}?["'`]?\s*[:=]\s*["'`]?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    group: 1,
    accept: (key) => looksRandom(key, 4),
  },
  { id: 'github-token', description: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b/g },
  { id: 'gitlab-token', description: 'a GitLab token', pattern: /\b(?:glpat|gldt|glptt|glrt|glcbt|glsoat)-[A-Za-z0-9_-]{20,}/g },
  { id: 'slack-token', description: 'a Slack token', pattern: /\bxox[abposr]-[0-9A-Za-z][0-9A-Za-z-]{8,}/g },
  { id: 'slack-webhook', description: 'a Slack webhook URL', pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g },
  { id: 'stripe-key', description: 'a Stripe secret key', pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,}\b/g },
  { id: 'anthropic-key', description: 'an Anthropic API key', pattern: /\bsk-ant-(?:api|admin|oat|sid)\d{2}-[A-Za-z0-9_-]{40,}/g },
  {
    id: 'openai-key',
    description: 'an OpenAI API key',
    pattern: /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})/g,
  },
  { id: 'google-api-key', description: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { id: 'google-oauth-secret', description: 'a Google OAuth client secret', pattern: /\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g },
  { id: 'npm-token', description: 'an npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { id: 'huggingface-token', description: 'a Hugging Face token', pattern: /\bhf_[A-Za-z]{34}\b/g },
  { id: 'sendgrid-key', description: 'a SendGrid API key', pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g },
  { id: 'azure-storage-key', description: 'an Azure storage account key', pattern: /AccountKey=[A-Za-z0-9+/]{86}==/g },
  {
    id: 'jwt',
    description: 'a JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}/g,
  },
  {
    id: 'url-credentials',
    description: 'a password in a URL',
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"`]{1,64}:([^\s:/@'"`]{6,128})@[A-Za-z0-9.-]+/gi,
    group: 1,
    accept: (password) => !PLACEHOLDER.test(password) && !/^(?:pass(?:word)?|secret|pwd|\*+)$/i.test(password) && shannonEntropy(password) >= 2.5,
  },
  {
    id: 'generic-secret',
    description: 'a random-looking secret assigned to a secret-sounding name',
    pattern: /([A-Za-z0-9_.-]{0,40}(?:secret|token|passw(?:or)?d|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credential)[A-Za-z0-9_.-]{0,40})["'`]?\s{0,4}(?:[:=]|:=|=>)\s{0,4}["'`]?([A-Za-z0-9+/_.~=-]{16,256})(?![A-Za-z0-9+/_.~=-])/gi,
    group: 2,
    accept: (value) => !value.includes('/') && !/^[a-z_.]+$/i.test(value) && looksRandom(value),
  },
];

/** Every well-known secret in `text` (the first per rule and position), in the order they appear. */
export function scanSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const taken: [number, number][] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      const secret = m[rule.group ?? 0] ?? m[0];
      const start = m.index + m[0].indexOf(secret);
      const end = start + secret.length;
      // The specific rules run first; the generic ones never report what a specific one did.
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      if (rule.accept && !rule.accept(secret, m)) continue;
      taken.push([start, end]);
      findings.push({ rule: rule.id, description: rule.description, index: start });
    }
  }
  return findings.sort((a, b) => a.index - b.index);
}

/**
 * What one scan of a tool call's arguments reads at most: characters of keys and values, and nodes
 * (objects, arrays, keys, values). Past either, the call is refused: arguments too large to read whole
 * are never let through half-read.
 */
export const SECRET_SCAN_LIMITS = Object.freeze({ maxChars: 1_000_000, maxNodes: 100_000 });

/** The code in the reason of a block for arguments past `SECRET_SCAN_LIMITS`. */
export const SECRET_SCAN_LIMIT_CODE = ERROR_CODES.LOUSHO_SECRET_SCAN_LIMIT;

/**
 * The text of a tool call's arguments, every key and every value at any depth, one per line (a
 * string value after its key, `key: value`, so `apiKey: …` reads like an assignment). Walked with an
 * explicit stack (no recursion limit to hide behind); undefined when it would pass the limits.
 */
function argumentsText(args: unknown): string | undefined {
  const lines: string[] = [];
  let chars = 0;
  let nodes = 0;
  const add = (line: string): boolean => {
    chars += line.length + 1;
    lines.push(line);
    return chars <= SECRET_SCAN_LIMITS.maxChars;
  };
  const stack: [key: string, value: unknown][] = [['value', args]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    if (++nodes > SECRET_SCAN_LIMITS.maxNodes) return undefined;
    const [key, value] = stack.pop()!;
    if (typeof value === 'string') {
      if (!add(`${key}: ${value}`)) return undefined;
    } else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
      if (!add(`${key}: ${String(value)}`)) return undefined;
    } else if (value !== null && typeof value === 'object') {
      if (seen.has(value)) continue;
      seen.add(value);
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push([key, value[i]]);
      } else {
        const entries = Object.entries(value);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [k, v] = entries[i]!;
          // A key is text the model chose too: a secret used as a key is still a secret.
          if (typeof v !== 'string' && !add(k)) return undefined;
          stack.push([k, v]);
        }
      }
    }
  }
  return lines.join('\n');
}

function textOf(ctx: GuardrailContext): string | undefined {
  return ctx.stage === 'tool' ? argumentsText(ctx.args) : typeof ctx.text === 'string' ? ctx.text : '';
}

/**
 * Blocks text that carries a well-known secret: cloud and API keys (AWS, GitHub, GitLab, Slack,
 * Stripe, OpenAI, Anthropic, Google, npm, Hugging Face, SendGrid, Azure), private key blocks, JWTs,
 * passwords in URLs, and random-looking values assigned to secret-sounding names. Works in every
 * stage: the input, the final reply, and tool arguments (every key and value, at any depth; arguments
 * past `SECRET_SCAN_LIMITS` are refused with `LOUSHO_SECRET_SCAN_LIMIT`, never let through unread).
 * The reason names the kind, never the secret.
 */
export const secretScanGuardrail: Guardrail = Object.freeze({
  name: 'secret-scan',
  check(ctx: GuardrailContext): GuardrailResult {
    const text = textOf(ctx);
    if (text === undefined) {
      const { maxChars, maxNodes } = SECRET_SCAN_LIMITS;
      return { block: `${SECRET_SCAN_LIMIT_CODE}: the arguments of '${(ctx as { toolName?: string }).toolName}' are too large to scan for secrets (over ${maxChars} characters or ${maxNodes} values).` };
    }
    const findings = scanSecrets(text);
    if (findings.length === 0) return undefined;
    const kinds = [...new Set(findings.map((f) => f.description))];
    const where = ctx.stage === 'tool' ? `the arguments of '${ctx.toolName}'` : ctx.stage === 'input' ? 'the input' : 'the reply';
    return { block: `${where} contain${ctx.stage === 'tool' ? '' : 's'} ${kinds.join(', ')}.` };
  },
});
