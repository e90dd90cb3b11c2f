import { ERROR_CODES, type AgentInput } from '@lousho/core';
import { defineChannel } from './define-channel.js';
import { errorJson } from './mount-channels.js';
import type { Channel, ChannelInbound, ChannelOutbound, ChannelRequest } from './types.js';

/** Options of `httpChannel()`. */
export interface HttpChannelOptions {
  /** Default `'http'` (sessions are `http:<conversationId>`). */
  name?: string;
  /** Default `/<name>`. */
  path?: string;
  /** Return true to accept the request; false answers 401. Default: every request is accepted. */
  authorize?: (request: Request) => boolean | Promise<boolean>;
}

const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A plain JSON request/response surface: `POST { conversationId?, input }` answers with the turn's
 * outcome (`reply`, `approval` or `error`), and `POST { conversationId, approvalId, approved | answer }`
 * decides what the agent paused on. For streaming UIs use `createAgentHandler()` instead.
 */
export function httpChannel(options: HttpChannelOptions = {}): Channel {
  return defineChannel({
    name: options.name ?? 'http',
    ...(options.path !== undefined ? { path: options.path } : {}),
    async receive(req) {
      const refusal = await checkJsonPost(req);
      if (refusal) return { respond: refusal };
      if (options.authorize && (await options.authorize(req.request)) !== true) {
        return { respond: errorJson(401, ERROR_CODES.LOUSHO_UNAUTHORIZED, 'This request is not authorized.') };
      }
      const parsed = parseJson(req.rawBody);
      if (!parsed.ok) return { respond: errorJson(400, ERROR_CODES.LOUSHO_INVALID_INPUT, parsed.message) };
      const inbound = inboundFromBody(parsed.value);
      if (typeof inbound === 'string') return { respond: errorJson(400, ERROR_CODES.LOUSHO_INVALID_INPUT, inbound) };
      return { inbound, reply: outcomeResponse };
    },
  });
}

/** 405 (with `Allow: POST`) for anything but POST. */
export function methodNotPost(method: string): Response | undefined {
  if (method.toUpperCase() === 'POST') return undefined;
  const response = errorJson(405, ERROR_CODES.LOUSHO_METHOD_NOT_ALLOWED, `${method} is not allowed here; use POST.`);
  response.headers.set('allow', 'POST');
  return response;
}

/** 405 for anything but POST, 415 for a body that is not JSON. */
async function checkJsonPost(req: ChannelRequest): Promise<Response | undefined> {
  const wrongMethod = methodNotPost(req.request.method);
  if (wrongMethod) return wrongMethod;
  const type = req.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    return errorJson(415, ERROR_CODES.LOUSHO_UNSUPPORTED_MEDIA_TYPE, 'The body must be JSON sent with "content-type: application/json".');
  }
  return undefined;
}

export function parseJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, message: 'The body is not valid UTF-8 text.' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, message: 'The body is not valid JSON.' };
  }
}

const CONVERSATION_ID = /^[^\s]{1,200}$/;

/** `{ conversationId?, input, metadata? }` or a decision; a string says what is wrong. */
function inboundFromBody(body: unknown): ChannelInbound | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The body must be a JSON object.';
  const value = body as Record<string, unknown>;
  const conversationId = value.conversationId;
  if (conversationId !== undefined && (typeof conversationId !== 'string' || !CONVERSATION_ID.test(conversationId))) {
    return 'conversationId must be a non-empty string without spaces (at most 200 characters).';
  }
  if (value.approvalId !== undefined) {
    if (typeof conversationId !== 'string') return 'A decision needs the conversationId it belongs to.';
    if (typeof value.approvalId !== 'string' || value.approvalId === '') return 'approvalId must be a non-empty string.';
    if (typeof value.answer === 'string') return { type: 'answer', conversationId, approvalId: value.approvalId, answer: value.answer };
    if (typeof value.approved !== 'boolean') return 'A decision needs { approved: true | false, note? } or { answer: "..." }.';
    if (value.note !== undefined && typeof value.note !== 'string') return 'note must be a string.';
    return { type: 'decision', conversationId, approvalId: value.approvalId, approved: value.approved, ...(typeof value.note === 'string' ? { note: value.note } : {}) };
  }
  const input = value.input;
  if (!(typeof input === 'string' && input.trim() !== '') && !(Array.isArray(input) && input.length > 0)) {
    return 'input must be a non-empty string or a non-empty array of content parts.';
  }
  if (value.metadata !== undefined && (typeof value.metadata !== 'object' || value.metadata === null || Array.isArray(value.metadata))) return 'metadata must be an object.';
  return {
    type: 'message',
    conversationId: conversationId ?? crypto.randomUUID(),
    input: input as AgentInput,
    ...(value.metadata ? { metadata: value.metadata as Record<string, unknown> } : {}),
  };
}

const STATUS_OF_CODE: Record<string, number> = {
  [ERROR_CODES.LOUSHO_SESSION_BUSY]: 409,
  [ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL]: 409,
  [ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING]: 409,
  [ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND]: 404,
  [ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH]: 400,
  [ERROR_CODES.LOUSHO_INVALID_INPUT]: 400,
};

/** The outcome as the JSON answer of a request/response channel. */
export function outcomeResponse(outcome: ChannelOutbound): Response {
  const { conversationId, sessionId } = outcome;
  const headers = { 'content-type': 'application/json; charset=utf-8' };
  if (outcome.type === 'error') {
    return new Response(JSON.stringify({ type: 'error', conversationId, sessionId, error: outcome.error }), { status: STATUS_OF_CODE[outcome.error.code] ?? 500, headers });
  }
  const body =
    outcome.type === 'reply'
      ? { type: 'reply', conversationId, sessionId, text: outcome.text, finishReason: outcome.result.finishReason }
      : { type: 'approval', conversationId, sessionId, approval: outcome.approval };
  return new Response(JSON.stringify(body), { status: 200, headers });
}
