import { sha256, toHex, utf8 } from './constant-time.js';

const PLAIN = /^[A-Za-z0-9.:-]$/;
const MAX_SESSION_ID = 128;

/**
 * The session id of a conversation: `<channel>:<conversation id>`, with any character the HTTP
 * handler does not allow in ids written as `_` + hex (so two conversations never share a session).
 * Ids that would be too long become `<channel>:_h<hash>`, which escaping never produces.
 */
export async function conversationSessionId(channel: string, conversationId: string): Promise<string> {
  let escaped = '';
  for (const char of conversationId) {
    if (PLAIN.test(char)) escaped += char;
    else for (const byte of utf8(char)) escaped += `_${byte.toString(16).padStart(2, '0')}`;
  }
  const id = `${channel}:${escaped}`;
  if (id.length <= MAX_SESSION_ID) return id;
  return `${channel}:_h${toHex(await sha256(utf8(conversationId))).slice(0, 48)}`;
}
