/** Small helpers shared by the wire-format decoders and request mappers. */
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { ServerSentEvent } from './event-stream.js';
import { ProviderResponseError, redactSecrets } from './http-error.js';
import type { ProviderIdentity } from './transport.js';

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-negative finite number, else undefined (APIs sometimes send null for "not counted"). */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Parses one event's JSON payload. A payload that does not parse is a malformed chunk, unless the
 * body ended inside it: then the stream was cut, which a retry may fix.
 */
export function parseEventJson(event: ServerSentEvent, who: ProviderIdentity): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    if (event.atEnd) throw streamCut(who);
    throw malformedChunk(who, `a stream chunk that is not valid JSON (${preview(event.data)})`);
  }
  if (!isRecord(parsed)) throw malformedChunk(who, `a stream chunk that is not a JSON object (${preview(event.data)})`);
  return parsed;
}

/** The stream stopped before the API's end marker. */
export function streamCut(who: { provider: string; label: string }): ProviderResponseError {
  return new ProviderResponseError({
    provider: who.provider,
    message: `The ${who.label} stream ended in the middle of the answer (the connection was cut).`,
    hint: 'This is usually a network problem or a proxy timeout: try again (withRetry() does it when nothing was streamed yet).',
    retryable: true,
  });
}

/** A chunk that does not follow the API's documented format. */
export function malformedChunk(who: ProviderIdentity, what: string): ProviderResponseError {
  return new ProviderResponseError({
    provider: who.provider,
    message: redactSecrets(`${who.label} sent ${what}.`, who.secrets),
    hint: 'Check that the base URL points at a compatible API; if it does, report this with the model id.',
    retryable: false,
  });
}

/** The error for a provider created without the key it needs. */
export function missingApiKey(label: string, variable: string): SDKError {
  return new SDKError(
    ERROR_CODES.LOUSHO_MISSING_API_KEY,
    `${label} needs an API key: set the ${variable} environment variable or pass \`apiKey\`.`,
    { hint: `Set ${variable} (e.g. in your .env file) or pass { apiKey } to the provider.` },
  );
}

/** The error for a request with no model and a provider with no default. */
export function missingModel(label: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `No model was given for ${label}.`, {
    hint: "Pass `model` to the provider or the agent, or resolve it from a string like 'openai/gpt-4o-mini'.",
  });
}

/** A stand-in call id for APIs that leave it out (some OpenAI-compatible servers do). */
export function generatedCallId(): string {
  return `call_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** Joins a base URL and a path with exactly one slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > 80 ? `${oneLine.slice(0, 80)}…` : oneLine);
}
