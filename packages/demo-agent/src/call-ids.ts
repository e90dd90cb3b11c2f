import { ERROR_CODES, SDKError } from '@lousho/build-ai-agent';

/**
 * How the demo model names its tool calls. `unique` (the default) as the big providers do: a
 * random id per call (`call_` and 24 letters and digits), never seen again. `per-response` as an
 * OpenAI-compatible server may: `call_0`, `call_1`, … numbered in each response, so the same ids
 * come again in every step and turn. The library must never rely on ids being unique beyond one
 * response; the demos' browser tests run on `per-response` to show it does not.
 */
export type DemoCallIds = 'unique' | 'per-response';

/** The demo switch on a server: `LOUSHO_DEMO_CALL_IDS=per-response`. */
export const DEMO_CALL_IDS_ENV = 'LOUSHO_DEMO_CALL_IDS';
/** The demo switch in a page (its agent runs there): `localStorage['lousho:demo:call-ids'] = 'per-response'`. */
export const DEMO_CALL_IDS_STORAGE_KEY = 'lousho:demo:call-ids';

const SCHEMES: readonly DemoCallIds[] = ['unique', 'per-response'];

/** `value` when it names a scheme; a clear error otherwise (`where` says where it came from). */
export function checkCallIds(value: unknown, where: string): DemoCallIds {
  if (SCHEMES.includes(value as DemoCallIds)) return value as DemoCallIds;
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${where} must be 'unique' or 'per-response', got ${JSON.stringify(value)}.`, {
    hint: "Leave it unset for unique ids; 'per-response' numbers the calls of each response from call_0.",
  });
}

/** The scheme the demo switch asks for (the environment on a server, `localStorage` in a page), or `unique`. */
export function switchedCallIds(): DemoCallIds {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[DEMO_CALL_IDS_ENV];
  if (env) return checkCallIds(env, DEMO_CALL_IDS_ENV);
  let stored: string | null | undefined;
  try {
    stored = (globalThis as { localStorage?: Storage }).localStorage?.getItem(DEMO_CALL_IDS_STORAGE_KEY);
  } catch {
    // Storage turned off: no switch.
  }
  return stored ? checkCallIds(stored, `localStorage['${DEMO_CALL_IDS_STORAGE_KEY}']`) : 'unique';
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The id of the `index`-th call of a response. */
export function callId(scheme: DemoCallIds, index: number): string {
  if (scheme === 'per-response') return `call_${index}`;
  let id = 'call_';
  for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(24))) id += ALPHABET[byte % ALPHABET.length];
  return id;
}
