import { ERROR_CODES } from '@lousho/core';
import type { Context, Message as AgUiMessage, ResumeEntry } from '@ag-ui/core';
import { AgUiRequestError, invalidInput } from './errors.js';

/** What the handler reads of a `RunAgentInput`, checked. */
export interface RunRequest {
  threadId: string;
  runId: string;
  messages: AgUiMessage[];
  context: Context[];
  forwardedProps: unknown;
  resume: ResumeEntry[];
}

export interface InputLimits {
  maxMessages: number;
}

const ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ROLES = new Set(['developer', 'system', 'assistant', 'user', 'tool', 'activity', 'reasoning']);
const MAX_CONTEXT = 100;
const MAX_RESUME = 20;

/**
 * Checks a request body as AG-UI's `RunAgentInput`, reading only what the handler uses (a body is
 * hostile: every field is checked before use, every list is bounded). `state` and `parentRunId`
 * are not read; unknown fields are left alone, as AG-UI's forward compatibility asks.
 */
export function parseRunInput(body: unknown, limits: InputLimits): RunRequest {
  if (!isRecord(body)) throw invalidInput('The body must be a JSON object (AG-UI RunAgentInput).');
  const threadId = id(body.threadId, 'threadId');
  const runId = id(body.runId, 'runId');
  if (body.protocolVersion !== undefined && (typeof body.protocolVersion !== 'string' || !/^1(\.|$)/.test(body.protocolVersion))) {
    throw invalidInput('protocolVersion: this endpoint speaks AG-UI 1.x.');
  }
  const tools = optionalList(body.tools, 'tools', Number.MAX_SAFE_INTEGER);
  if (tools.length > 0) {
    throw new AgUiRequestError(400, ERROR_CODES.LOUSHO_AGUI_FRONTEND_TOOLS_UNSUPPORTED, 'tools: this endpoint runs the tools its agent defines; tools sent by the client (frontend tools) are not supported. Send `tools: []`.');
  }
  const messages = list(body.messages, 'messages', limits.maxMessages).map((message, index) => checkMessage(message, `messages[${index}]`));
  const context = optionalList(body.context, 'context', MAX_CONTEXT).map((item, index) => {
    if (!isRecord(item) || typeof item.description !== 'string' || typeof item.value !== 'string') throw invalidInput(`context[${index}] must be { description: string, value: string }.`);
    return { description: item.description, value: item.value };
  });
  const resume = optionalList(body.resume, 'resume', MAX_RESUME).map((entry, index) => checkResumeEntry(entry, `resume[${index}]`));
  return { threadId, runId, messages, context, forwardedProps: body.forwardedProps, resume };
}

function checkMessage(value: unknown, at: string): AgUiMessage {
  if (!isRecord(value)) throw invalidInput(`${at} must be an object.`);
  if (typeof value.id !== 'string' || value.id.length === 0 || value.id.length > 200) throw invalidInput(`${at}.id must be a string of 1 to 200 characters.`);
  if (typeof value.role !== 'string' || !ROLES.has(value.role)) throw invalidInput(`${at}.role must be one of ${[...ROLES].join(', ')}.`);
  if (value.role === 'assistant' && value.toolCalls !== undefined) {
    list(value.toolCalls, `${at}.toolCalls`, 1000).forEach((call, index) => {
      const where = `${at}.toolCalls[${index}]`;
      if (!isRecord(call) || typeof call.id !== 'string' || !isRecord(call.function) || typeof call.function.name !== 'string' || typeof call.function.arguments !== 'string') {
        throw invalidInput(`${where} must be { id, type: 'function', function: { name, arguments } }.`);
      }
    });
  }
  if (value.role === 'tool' && typeof value.toolCallId !== 'string') throw invalidInput(`${at}.toolCallId must be a string.`);
  if ((value.role === 'user' || value.role === 'tool') && typeof value.content !== 'string' && !Array.isArray(value.content)) {
    throw invalidInput(`${at}.content must be a string or a list of parts.`);
  }
  if (Array.isArray(value.content)) value.content.forEach((part, index) => checkPart(part, `${at}.content[${index}]`));
  return value as AgUiMessage;
}

function checkPart(part: unknown, at: string): void {
  if (!isRecord(part) || typeof part.type !== 'string') throw invalidInput(`${at} must be a content part with a type.`);
  if (part.type === 'text') {
    if (typeof part.text !== 'string') throw invalidInput(`${at}.text must be a string.`);
    return;
  }
  const source = part.source;
  if (!isRecord(source) || typeof source.type !== 'string' || typeof source.value !== 'string') throw invalidInput(`${at}.source must be { type, value }.`);
}

function checkResumeEntry(entry: unknown, at: string): ResumeEntry {
  if (!isRecord(entry)) throw invalidInput(`${at} must be an object.`);
  const interruptId = id(entry.interruptId, `${at}.interruptId`);
  if (entry.status !== 'resolved' && entry.status !== 'cancelled') throw invalidInput(`${at}.status must be "resolved" or "cancelled".`);
  return { interruptId, status: entry.status, ...(entry.payload !== undefined && { payload: entry.payload }) };
}

function id(value: unknown, at: string): string {
  if (typeof value !== 'string' || !ID.test(value)) throw invalidInput(`${at} must be 1 to 128 letters, digits or . _ : -.`);
  return value;
}

function list(value: unknown, at: string, max: number): unknown[] {
  if (!Array.isArray(value)) throw invalidInput(`${at} must be a list.`);
  if (value.length > max) throw invalidInput(`${at} has ${value.length} items; at most ${max} are accepted.`);
  return value;
}

function optionalList(value: unknown, at: string, max: number): unknown[] {
  return value === undefined || value === null ? [] : list(value, at, max);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
