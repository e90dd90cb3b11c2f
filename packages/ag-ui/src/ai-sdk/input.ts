import type { ContentPart, Message } from '@lousho/core';
import { invalidInput } from '../errors.js';

/** A part of an AI SDK `UIMessage`, as far as the handler reads it. */
export interface UiPart {
  type: string;
  text?: string;
  url?: string;
  mediaType?: string;
  filename?: string;
  toolCallId?: string;
  state?: string;
  output?: unknown;
  errorText?: unknown;
  approval?: { id: string; approved?: boolean; reason?: string };
}

/** An AI SDK `UIMessage`, as far as the handler reads it. */
export interface UiMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  parts: UiPart[];
}

/** What the handler reads of a `useChat` request (`DefaultChatTransport`'s body). */
export interface ChatRequest {
  chatId: string;
  messages: UiMessage[];
  trigger: 'submit-message' | 'regenerate-message';
}

const ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_PARTS = 1000;

/** Checks a `useChat` request body (hostile: every field read is checked, every list bounded). */
export function parseChatRequest(body: unknown, limits: { maxMessages: number }): ChatRequest {
  if (!isRecord(body)) throw invalidInput('The body must be a JSON object (a useChat request).');
  if (typeof body.id !== 'string' || !ID.test(body.id)) throw invalidInput('id (the chat id) must be 1 to 128 letters, digits or . _ : -.');
  const trigger = body.trigger ?? 'submit-message';
  if (trigger !== 'submit-message' && trigger !== 'regenerate-message') throw invalidInput('trigger must be "submit-message" or "regenerate-message".');
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw invalidInput('messages must be a list with at least one message.');
  if (body.messages.length > limits.maxMessages) throw invalidInput(`messages has ${body.messages.length} items; at most ${limits.maxMessages} are accepted.`);
  const messages = body.messages.map((message, index) => checkMessage(message, `messages[${index}]`));
  return { chatId: body.id, messages, trigger };
}

function checkMessage(value: unknown, at: string): UiMessage {
  if (!isRecord(value)) throw invalidInput(`${at} must be an object.`);
  if (typeof value.id !== 'string' || value.id.length > 200) throw invalidInput(`${at}.id must be a string of at most 200 characters.`);
  if (value.role !== 'system' && value.role !== 'user' && value.role !== 'assistant') throw invalidInput(`${at}.role must be system, user or assistant.`);
  if (!Array.isArray(value.parts) || value.parts.length > MAX_PARTS) throw invalidInput(`${at}.parts must be a list of at most ${MAX_PARTS} parts.`);
  value.parts.forEach((part, index) => {
    if (!isRecord(part) || typeof part.type !== 'string') throw invalidInput(`${at}.parts[${index}] must be a part with a type.`);
    if (part.type === 'text' && typeof part.text !== 'string') throw invalidInput(`${at}.parts[${index}].text must be a string.`);
    if (part.type === 'file' && (typeof part.url !== 'string' || typeof part.mediaType !== 'string')) throw invalidInput(`${at}.parts[${index}] (a file) needs url and mediaType.`);
    if (isToolPart(part as unknown as UiPart)) {
      if (typeof part.toolCallId !== 'string' || typeof part.state !== 'string') throw invalidInput(`${at}.parts[${index}] (a tool part) needs toolCallId and state.`);
      if (part.approval !== undefined && (!isRecord(part.approval) || typeof part.approval.id !== 'string')) throw invalidInput(`${at}.parts[${index}].approval must be { id, approved?, reason? }.`);
    }
  });
  return value as unknown as UiMessage;
}

export function isToolPart(part: UiPart): boolean {
  return part.type.startsWith('tool-') || part.type === 'dynamic-tool';
}

/** A user message's text and files as a run's input content. */
export function userContent(message: UiMessage, at: string): string | ContentPart[] {
  const parts: ContentPart[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text! });
    else if (part.type === 'file') {
      if (part.mediaType!.startsWith('image/')) parts.push({ type: 'image', image: part.url!, mimeType: part.mediaType! });
      else parts.push({ type: 'file', data: part.url!, mimeType: part.mediaType!, ...(part.filename && { filename: part.filename }) });
    }
  }
  if (parts.length === 0) throw invalidInput(`${at} has no text or file to send.`);
  return parts.every((part) => part.type === 'text') ? parts.map((part) => (part as { text: string }).text).join('') : parts;
}

/**
 * A chat the server has never seen: its history's text as the first turn's input. System messages
 * are refused (the agent's instructions are the server's); tool parts of past turns are not replayed.
 */
export function historyOf(messages: UiMessage[]): Message[] {
  return messages.map((message, index) => {
    const at = `messages[${index}]`;
    if (message.role === 'system') throw invalidInput(`${at}: system messages are not accepted; the agent's instructions are set on the server.`);
    if (message.role === 'user') return { role: 'user', content: userContent(message, at) };
    return { role: 'assistant', content: message.parts.flatMap((part) => (part.type === 'text' ? [part.text!] : [])).join('') };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
