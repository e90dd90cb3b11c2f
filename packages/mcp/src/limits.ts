import { ERROR_CODES, SDKError, type McpConnectOptions } from '@lousho/core';

/** Largest message a server may send (a call result, a page of the tool list), in bytes. */
export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024;
/** Most tools loaded from one server. */
export const DEFAULT_MAX_TOOLS = 1000;
/** Longest tool description offered to a model, in characters. */
export const DEFAULT_MAX_DESCRIPTION_LENGTH = 10_000;

/** The bounds of `McpConnectOptions`, defaults filled in. */
export interface McpLimits {
  maxResultBytes: number;
  maxTools: number;
  maxDescriptionLength: number;
}

/** The bounds of `options`, each a positive integer (anything else is a config error, never ignored). */
export function checkLimits(options: Pick<McpConnectOptions, 'maxResultBytes' | 'maxTools' | 'maxDescriptionLength'>): McpLimits {
  return {
    maxResultBytes: positiveInteger('maxResultBytes', options.maxResultBytes, DEFAULT_MAX_RESULT_BYTES),
    maxTools: positiveInteger('maxTools', options.maxTools, DEFAULT_MAX_TOOLS),
    maxDescriptionLength: positiveInteger('maxDescriptionLength', options.maxDescriptionLength, DEFAULT_MAX_DESCRIPTION_LENGTH),
  };
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `MCP option ${name} must be a positive integer, got ${String(value)}.`, { hint: `Leave it out for the default (${fallback}).` });
}

/** A number of bytes as people read it ("4 MiB", "512 KiB", "300 bytes"). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
