/** Ollama through its OpenAI-compatible endpoint (`/v1`): local models, no API key. */
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { providerEnv, readVar } from './env.js';
import { OpenAICompatibleProvider } from './openai-compatible.js';
import { checkOllamaOptions } from './option-keys.js';
import type { OllamaProviderOptions } from './provider-options.js';

export type { OllamaProviderOptions } from './provider-options.js';

export const OLLAMA_DEFAULT_HOST = 'http://localhost:11434';
export const OLLAMA_DEFAULT_MODEL = 'llama3.2';

/** Streams a local Ollama model. Usage is reported when the Ollama version sends it. */
export class OllamaProvider extends OpenAICompatibleProvider {
  constructor(options: OllamaProviderOptions = {}) {
    checkOllamaOptions(options);
    const env = providerEnv(options.env);
    super({
      name: 'ollama',
      label: 'Ollama',
      baseURL: ollamaBaseURL(options.host ?? readVar(env, 'OLLAMA_HOST') ?? OLLAMA_DEFAULT_HOST),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      model: options.model ?? OLLAMA_DEFAULT_MODEL,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }
}

/**
 * `OLLAMA_HOST` → the OpenAI-compatible API root, read the way Ollama reads it: a value without a
 * scheme is `http://` and defaults to port 11434 (`0.0.0.0`, `host`, `host:port`); a value with a
 * scheme keeps that scheme's usual port. A listen-all address is reached through localhost.
 */
export function ollamaBaseURL(host: string): string {
  const trimmed = host.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `http://${trimmed}`);
  } catch {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `The Ollama host ${JSON.stringify(trimmed)} is not a valid address.`, {
      hint: 'Set OLLAMA_HOST (or the host option) to something like http://localhost:11434 or 127.0.0.1:11434.',
    });
  }
  const authority = hasScheme ? '' : (trimmed.split('/')[0] ?? '');
  if (!hasScheme && !/:\d+$/.test(authority)) url.port = '11434';
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = 'localhost';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith('/v1') ? path : `${path}/v1`}`;
}
