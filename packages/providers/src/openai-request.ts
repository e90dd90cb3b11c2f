/**
 * GenerateOptions → an OpenAI Chat Completions request body (also spoken by OpenRouter, Ollama,
 * vLLM, LM Studio and others). Only the fields of the published API reference are sent.
 */
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { textOf, type ContentPart, type Message } from '@lousho/protocol';
import { decodeBase64Text, fileSource, imageUrl, isTextMediaType } from './media.js';
import type { GenerateOptions } from '@lousho/protocol';
import type { JsonObject } from './wire.js';
import { unresolvedAttachment } from '@lousho/protocol';

export interface OpenAIRequestSettings {
  /** `max_completion_tokens` for OpenAI itself; most compatible servers only know `max_tokens`. */
  maxTokensParameter: 'max_tokens' | 'max_completion_tokens';
  /** Ask for the final usage chunk (`stream_options.include_usage`). */
  includeUsage: boolean;
  /** For error messages, e.g. `OpenAI`. */
  label: string;
}

/** The streaming request body for one turn. */
export function toOpenAIRequest(options: GenerateOptions, model: string, settings: OpenAIRequestSettings): JsonObject {
  const body: JsonObject = {
    model,
    messages: toOpenAIMessages(options.system, options.messages, settings.label),
    stream: true,
  };
  if (settings.includeUsage) body.stream_options = { include_usage: true };
  if (options.tools && options.tools.length > 0) {
    body.tools = options.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.maxTokens !== undefined) body[settings.maxTokensParameter] = options.maxTokens;
  if (options.responseFormat?.type === 'json') {
    // Without strict mode any JSON Schema is accepted; strict mode would demand every property required.
    body.response_format = options.responseFormat.schema
      ? { type: 'json_schema', json_schema: { name: 'response', schema: options.responseFormat.schema, strict: false } }
      : { type: 'json_object' };
  }
  return body;
}

/** The transcript as Chat Completions messages, the system instructions first. */
export function toOpenAIMessages(system: string | undefined, messages: readonly Message[], label: string): JsonObject[] {
  const out: JsonObject[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: textOf(message) });
        break;
      case 'user':
        out.push({ role: 'user', content: typeof message.content === 'string' ? message.content : userParts(message.content, label) });
        break;
      case 'assistant': {
        const text = textOf(message);
        const calls = message.toolCalls ?? [];
        const assistant: JsonObject = { role: 'assistant', content: text || (calls.length > 0 ? null : '') };
        if (calls.length > 0) {
          assistant.tool_calls = calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          }));
        }
        out.push(assistant);
        break;
      }
      case 'tool':
        if (!message.toolCallId) {
          throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `A tool message sent to ${label} has no toolCallId.`, {
            hint: 'Every tool message must name the call it answers (toolCallId).',
          });
        }
        // Chat Completions tool messages carry text only.
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: textOf(message) });
        break;
      default:
        break;
    }
  }
  return out;
}

function userParts(parts: readonly ContentPart[], label: string): JsonObject[] {
  const out: JsonObject[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      out.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') {
      out.push({ type: 'image_url', image_url: { url: imageUrl(part) } });
    } else if (part.type === 'attachment') {
      throw unresolvedAttachment(part);
    } else {
      out.push(filePart(part, label));
    }
  }
  return out;
}

function filePart(part: Extract<ContentPart, { type: 'file' }>, label: string): JsonObject {
  const { mimeType, data, filename } = fileSource(part);
  if (mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url: `data:${mimeType};base64,${data}` } };
  if (mimeType === 'application/pdf') {
    return { type: 'file', file: { filename: filename ?? 'document.pdf', file_data: `data:${mimeType};base64,${data}` } };
  }
  if (mimeType === 'audio/wav' || mimeType === 'audio/x-wav' || mimeType === 'audio/mpeg' || mimeType === 'audio/mp3') {
    return { type: 'input_audio', input_audio: { data, format: mimeType.includes('wav') ? 'wav' : 'mp3' } };
  }
  if (isTextMediaType(mimeType)) {
    const text = decodeBase64Text(data);
    return { type: 'text', text: filename ? `${filename}:\n${text}` : text };
  }
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `${label} cannot read a file of type ${mimeType}.`, {
    hint: 'Send images, PDFs, WAV/MP3 audio or text files, or convert the file to text first.',
  });
}
