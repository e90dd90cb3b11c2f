import { ERROR_CODES, SDKError, type McpHttpServerConfig, type McpServerConfig, type McpStdioServerConfig } from '@lousho/core';
import { isJsonObject } from './json-schema/json-value.js';
import { checkServerName } from './tool-names.js';

export const DEFAULT_TIMEOUT_MS = 60_000;

/** One server's config, checked: `kind` says how to reach it. */
export type CheckedServer =
  | { kind: 'stdio'; name: string; config: McpStdioServerConfig; timeoutMs: number; target: string }
  | { kind: 'http'; name: string; config: McpHttpServerConfig; url: URL; timeoutMs: number; target: string };

function invalid(name: string, problem: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `MCP server '${name}': ${problem}`, {
    hint: "A server is { command, args?, env?, cwd? } (stdio) or { url, headers? } (HTTP), e.g. { command: 'node', args: ['server.js'] }.",
  });
}

/** Checks a server's config and says how it will be reached (for error messages: no headers, no URL secrets). */
export function checkServer(name: string, config: McpServerConfig, defaultTimeoutMs = DEFAULT_TIMEOUT_MS): CheckedServer {
  checkServerName(name);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw invalid(name, `the config must be an object, got ${Array.isArray(config) ? 'an array' : String(config)}.`);
  const raw = config as unknown as Record<string, unknown>;
  const timeoutMs = raw.timeoutMs === undefined ? defaultTimeoutMs : raw.timeoutMs;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) throw invalid(name, `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`);
  const hasCommand = raw.command !== undefined;
  const hasUrl = raw.url !== undefined;
  if (hasCommand === hasUrl) throw invalid(name, hasCommand ? 'give either command (stdio) or url (HTTP), not both.' : 'give a command (stdio) or a url (HTTP).');

  if (hasCommand) {
    const { command, args, env, cwd } = raw;
    if (typeof command !== 'string' || command.trim() === '') throw invalid(name, 'command must be a non-empty string.');
    if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))) throw invalid(name, 'args must be an array of strings.');
    if (env !== undefined && (!isJsonObject(env) || !Object.values(env).every((value) => typeof value === 'string'))) throw invalid(name, 'env must be an object of strings.');
    if (cwd !== undefined && typeof cwd !== 'string') throw invalid(name, 'cwd must be a string.');
    const target = `command: ${[command, ...((args as string[] | undefined) ?? [])].join(' ')}`;
    return { kind: 'stdio', name, config: config as McpStdioServerConfig, timeoutMs, target };
  }

  let url: URL;
  try {
    url = new URL(String(raw.url));
  } catch {
    throw invalid(name, `url is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(name, `url must be http: or https:, got ${url.protocol}`);
  if (url.username || url.password) throw invalid(name, `url ${redactUrl(url)} must not carry a user or password: send credentials in headers (e.g. Authorization).`);
  const headers = raw.headers;
  if (headers !== undefined && (!isJsonObject(headers) || !Object.values(headers).every((value) => typeof value === 'string'))) throw invalid(name, 'headers must be an object of strings.');
  return { kind: 'http', name, config: config as McpHttpServerConfig, url, timeoutMs, target: `url: ${redactUrl(url)}` };
}

/** The URL without what may be a secret: no user or password, query values hidden. */
export function redactUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  for (const key of [...new Set(shown.searchParams.keys())]) shown.searchParams.set(key, '…');
  shown.hash = '';
  return shown.href;
}

/** `text` with the server's secrets (header values, the URL's query values) replaced by `…`. */
export function scrubSecrets(server: CheckedServer, text: string): string {
  if (server.kind !== 'http') return text;
  const secrets = [server.url.href, ...Object.values(server.config.headers ?? {}), ...[...server.url.searchParams.values()]].filter((secret) => secret.length >= 3);
  let scrubbed = text.split(server.url.href).join(redactUrl(server.url));
  for (const secret of secrets) scrubbed = scrubbed.split(secret).join('…');
  return scrubbed;
}

/** A key that is the same for the same server config (what a cached connection is reused for). */
export function configKey(server: CheckedServer): string {
  return JSON.stringify([server.name, stable(server.config)]);
}

function stable(value: unknown): unknown {
  if (value instanceof URL) return value.href;
  if (Array.isArray(value)) return value.map(stable);
  if (!isJsonObject(value)) return value;
  return Object.keys(value)
    .sort()
    .map((key) => [key, stable(value[key])]);
}
