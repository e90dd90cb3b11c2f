import { ERROR_CODES } from '@lousho/protocol';
import type { ContentPart } from '@lousho/protocol';
import { HttpError } from './errors.js';
import type { RequestView } from './request-view.js';

export interface MessageBody {
  input: string | ContentPart[];
  metadata?: Record<string, unknown>;
}

export type DecisionBody =
  | { kind: 'tool'; approved: boolean; note?: string }
  | { kind: 'question'; answer: string }
  | { kind: 'client'; result?: unknown; error?: string; toolCallId?: string };

/** Session ids a client may choose: letters, digits and `_ . : -`, up to 128 characters. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export function isValidSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

function invalid(message: string): HttpError {
  return new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, message);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `{ input: string | ContentPart[], metadata? }`. Parts are rebuilt from their known fields, so a
 * client can add only user content to the transcript (no roles, tool results or extra keys).
 */
export function parseMessageBody(body: unknown): MessageBody {
  if (!isPlainObject(body)) throw invalid('The body must be a JSON object: { "input": "..." }.');
  const { input, metadata } = body;
  if (metadata !== undefined && !isPlainObject(metadata)) throw invalid('"metadata" must be a JSON object when given.');
  const meta = metadata === undefined ? {} : { metadata };
  if (typeof input === 'string') {
    if (input.trim() === '') throw invalid('"input" is empty; send the user\'s message as a non-empty string.');
    return { input, ...meta };
  }
  if (!Array.isArray(input) || input.length === 0) {
    throw invalid('"input" must be a non-empty string or a non-empty array of content parts ({ type: "text", text } ...).');
  }
  return { input: input.map(parsePart), ...meta };
}

function parsePart(part: unknown, index: number): ContentPart {
  const where = `"input[${index}]"`;
  if (!isPlainObject(part)) throw invalid(`${where} must be an object with a "type".`);
  const optionalString = (key: string): Record<string, string> => {
    const value = part[key];
    if (value === undefined) return {};
    if (typeof value !== 'string') throw invalid(`${where}.${key} must be a string.`);
    return { [key]: value };
  };
  const requiredString = (key: string): string => {
    const value = part[key];
    if (typeof value !== 'string') throw invalid(`${where}.${key} must be a string.`);
    return value;
  };
  switch (part.type) {
    case 'text':
      return { type: 'text', text: requiredString('text') };
    case 'image':
      return { type: 'image', image: requiredString('image'), ...optionalString('mimeType') };
    case 'file':
      return { type: 'file', data: requiredString('data'), mimeType: requiredString('mimeType'), ...optionalString('filename') };
    case 'attachment':
      // The rest (name, type, size) is the store's, filled in by the handler once the id is checked.
      return { type: 'attachment', fileId: requiredString('fileId'), name: '', mimeType: '', size: 0 };
    default:
      throw invalid(`${where}.type must be "text", "image", "file" or "attachment".`);
  }
}

/**
 * `{ approved: boolean, note?: string }` decides a tool call; `{ answer: string }` answers a
 * question; `{ result }` (or `{ error: string }`) ends a browser tool's call.
 */
export function parseDecisionBody(body: unknown): DecisionBody {
  if (!isPlainObject(body)) throw invalid('The body must be a JSON object: { "approved": true }, { "answer": "..." } or { "result": ... }.');
  const hasApproved = 'approved' in body;
  const hasAnswer = 'answer' in body;
  const hasResult = 'result' in body || 'error' in body;
  if (Number(hasApproved) + Number(hasAnswer) + Number(hasResult) !== 1) {
    throw invalid('Send one of { "approved": boolean, "note"?: string } for a tool call, { "answer": string } for a question, or { "result": ... } (or { "error": string }) for a browser tool.');
  }
  if (hasResult) {
    if (body.toolCallId !== undefined && typeof body.toolCallId !== 'string') throw invalid('"toolCallId" must be a string when given.');
    const call = typeof body.toolCallId === 'string' ? { toolCallId: body.toolCallId } : {};
    // (An `error` wins over a `result` sent with it: the page's tool failed.)
    if ('error' in body) {
      if (typeof body.error !== 'string') throw invalid('"error" must be a string.');
      return { kind: 'client', error: body.error, ...call };
    }
    return { kind: 'client', result: body.result, ...call };
  }
  if (hasAnswer) {
    if (typeof body.answer !== 'string') throw invalid('"answer" must be a string.');
    return { kind: 'question', answer: body.answer };
  }
  if (typeof body.approved !== 'boolean') throw invalid('"approved" must be true or false.');
  if (body.note !== undefined && typeof body.note !== 'string') throw invalid('"note" must be a string when given.');
  return { kind: 'tool', approved: body.approved, ...(typeof body.note === 'string' ? { note: body.note } : {}) };
}

/** The resume point: the `Last-Event-ID` header (what a reconnecting EventSource sends) wins over `?after=`. */
export function parseResumePoint(request: Pick<RequestView, 'header'>, url: URL): number | undefined {
  const header = request.header('last-event-id');
  const raw = header !== null && header.trim() !== '' ? header.trim() : url.searchParams.get('after');
  if (raw === null || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw invalid(`The resume point must be a non-negative integer (an event's sequence number), got "${raw.slice(0, 40)}".`);
  return Number(raw);
}
