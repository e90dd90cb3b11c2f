import { ERROR_CODES, SDKError } from '@lousho/core';

/** What a server name may be: it becomes the prefix of every tool name, so letters, digits, _ and - only. */
const SERVER_NAME = /^[a-zA-Z0-9_-]{1,40}$/;

export function checkServerName(name: string): void {
  if (SERVER_NAME.test(name)) return;
  const suggestion = name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'server';
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `MCP server name '${name.slice(0, 60)}' cannot prefix tool names: use 1-40 letters, digits, _ and - (e.g. '${suggestion}').`, {
    hint: 'Tools are offered to the model as <server>__<tool>, and providers accept only ^[a-zA-Z0-9_-]{1,64}$.',
  });
}

/**
 * The name the model calls a server's tool by: `<server>__<tool>`, with characters providers refuse
 * replaced by `_`, and cut to 64 characters with a short hash of the full name so that two long names
 * that share a beginning stay apart.
 */
export function agentToolName(server: string, tool: string): string {
  const cleaned = tool.replace(/[^a-zA-Z0-9_-]/g, '_');
  const full = `${server}__${cleaned}`;
  if (full.length <= 64) return full;
  const suffix = `_${hash(`${server}\u0000${tool}`)}`;
  return `${full.slice(0, 64 - suffix.length)}${suffix}`;
}

/** FNV-1a, 32 bits, base 36: short, stable across runs and processes. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** Two tools of a server that end up with one agent name are refused, naming both. */
export function collisionError(server: string, agentName: string, first: string, second: string): SDKError {
  return new SDKError(
    ERROR_CODES.LOUSHO_DUPLICATE_TOOL,
    `MCP server '${server}' has two tools that would both be called '${agentName}': '${first}' and '${second}'. Tool names must be unique once characters providers refuse are replaced.`,
    { hint: 'Rename one of the tools on the server, or connect it under another name and load only what you need.' },
  );
}
