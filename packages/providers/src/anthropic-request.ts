/**
 * GenerateOptions → an Anthropic Messages API request body. The API differs from Chat Completions
 * in ways that matter here: the system prompt is a top-level field, tool calls are `tool_use`
 * content blocks, tool results are `tool_result` blocks inside a *user* message (all results of a
 * turn in one message, before any text), roles must alternate, and text blocks may not be empty.
 */
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { textOf, type ContentPart, type Message } from '@lousho/protocol';
import { decodeBase64Text, fileSource, imageSource, type MediaSource } from './media.js';
import type { GenerateOptions } from '@lousho/protocol';
import { isRecord, type JsonObject } from './wire.js';
import { unresolvedAttachment } from '@lousho/protocol';

export interface AnthropicRequestSettings {
  /** `max_tokens` is required by the API; used when the request sets none. */
  defaultMaxTokens: number;
}

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: JsonObject[];
}

/**
 * How a structured answer comes back: the Messages API constrains a tool's input to its schema, so a
 * JSON answer with a schema is asked for as a call of this extra tool, forced with `tool_choice`.
 * A schema whose root is not an object (the API wants an object) is wrapped as `{ value }`.
 */
export interface AnswerTool {
  name: string;
  wrapped: boolean;
}

/** The answer tool of a request, when it asks for JSON matching a schema. */
export function answerToolFor(options: GenerateOptions): AnswerTool | undefined {
  const format = options.responseFormat;
  if (format?.type !== 'json' || !format.schema) return undefined;
  const taken = new Set((options.tools ?? []).map((tool) => tool.name));
  let name = 'final_answer';
  for (let i = 2; taken.has(name); i++) name = `final_answer_${i}`;
  return { name, wrapped: format.schema.type !== 'object' };
}

/** The streaming request body for one turn. */
export function toAnthropicRequest(options: GenerateOptions, model: string, settings: AnthropicRequestSettings): JsonObject {
  const { system, messages } = toAnthropicMessages(options.system, options.messages);
  const body: JsonObject = {
    model,
    max_tokens: options.maxTokens ?? settings.defaultMaxTokens,
    messages,
    stream: true,
  };
  const answer = answerToolFor(options);
  const instructions = [system, answer ? answerInstruction(answer) : jsonInstruction(options.responseFormat)].filter(Boolean).join('\n\n');
  if (instructions) body.system = instructions;
  const tools: JsonObject[] = (options.tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  if (answer) {
    const schema = options.responseFormat!.schema!;
    tools.push({
      name: answer.name,
      description: 'Gives your final answer. Call it once, when no other tool is needed; its input is the answer.',
      input_schema: answer.wrapped ? { type: 'object', properties: { value: schema }, required: ['value'] } : schema,
    });
    // With other tools the model may still call them first; either way it cannot answer in prose.
    body.tool_choice = tools.length > 1 ? { type: 'any' } : { type: 'tool', name: answer.name };
  }
  if (tools.length > 0) body.tools = tools;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  return body;
}

/**
 * The transcript as Messages API turns. Consecutive messages that map to the same role are merged
 * into one turn, which puts every tool result of a turn in a single user message.
 */
export function toAnthropicMessages(
  system: string | undefined,
  messages: readonly Message[],
): { system: string | undefined; messages: AnthropicMessage[] } {
  const systemParts: string[] = system ? [system] : [];
  const out: AnthropicMessage[] = [];
  const append = (role: 'user' | 'assistant', blocks: JsonObject[]) => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system': {
        const text = textOf(message);
        if (text) systemParts.push(text);
        break;
      }
      case 'user':
        append('user', contentBlocks(message.content));
        break;
      case 'assistant': {
        const blocks: JsonObject[] = [];
        const text = textOf(message);
        if (text.trim()) blocks.push({ type: 'text', text });
        for (const call of message.toolCalls ?? []) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
        }
        append('assistant', blocks);
        break;
      }
      case 'tool': {
        if (!message.toolCallId) {
          throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, 'A tool message sent to Anthropic has no toolCallId.', {
            hint: 'Every tool message must name the call it answers (toolCallId).',
          });
        }
        const result: JsonObject = { type: 'tool_result', tool_use_id: message.toolCallId };
        const content = typeof message.content === 'string' ? message.content : contentBlocks(message.content);
        if (typeof content === 'string' ? content !== '' : content.length > 0) result.content = content;
        if (message.isError) result.is_error = true;
        append('user', [result]);
        break;
      }
      default:
        break;
    }
  }
  return { system: systemParts.length > 0 ? systemParts.join('\n\n') : undefined, messages: out };
}

/** The API takes the input as an object; the transcript keeps the model's raw JSON text. */
function toolInput(args: string): JsonObject {
  if (!args.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? parsed : { value: parsed };
  } catch {
    // The model produced invalid JSON; the tool result already told it so. Keep the text visible.
    return { invalid_json: args };
  }
}

function contentBlocks(content: string | readonly ContentPart[]): JsonObject[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const out: JsonObject[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      if (part.text) out.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') {
      out.push({ type: 'image', source: sourceBlock(imageSource(part)) });
    } else if (part.type === 'attachment') {
      throw unresolvedAttachment(part);
    } else {
      out.push(fileBlock(part));
    }
  }
  return out;
}

function fileBlock(part: Extract<ContentPart, { type: 'file' }>): JsonObject {
  const { mimeType, data, filename } = fileSource(part);
  const title = filename ? { title: filename } : {};
  if (mimeType.startsWith('image/')) return { type: 'image', source: { type: 'base64', media_type: mimeType, data } };
  if (mimeType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: mimeType, data }, ...title };
  if (mimeType.startsWith('text/')) {
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: decodeBase64Text(data) }, ...title };
  }
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `Anthropic cannot read a file of type ${mimeType}.`, {
    hint: 'Send images, PDFs or text files, or convert the file to text first.',
  });
}

function sourceBlock(source: MediaSource): JsonObject {
  return source.kind === 'url'
    ? { type: 'url', url: source.url }
    : { type: 'base64', media_type: source.mimeType, data: source.data };
}

function answerInstruction(answer: AnswerTool): string {
  return `When you have the final answer, give it by calling the \`${answer.name}\` tool; never answer in prose.`;
}

/**
 * JSON without a schema cannot be constrained through a tool, so that hint becomes an instruction
 * (the agent still checks the answer and asks again when it is not JSON).
 */
function jsonInstruction(format: GenerateOptions['responseFormat']): string {
  if (format?.type !== 'json') return '';
  const base = 'Answer with a single JSON value only: no prose, no Markdown code fences.';
  return format.schema ? `${base} It must match this JSON Schema:\n${JSON.stringify(format.schema)}` : base;
}
