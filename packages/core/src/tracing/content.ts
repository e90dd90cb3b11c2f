import type { ContentPart, Message, ToolCall } from '@lousho/protocol';

/**
 * Prompts and replies in the GenAI conventions' message format (`role` + `parts`), as JSON text:
 * span attributes cannot hold structured values, so the conventions allow the JSON string form.
 * Only used when an exporter opts in with `captureContent`. Inline media is not copied (only its
 * kind and MIME type), to keep attributes small.
 */
export function inputMessagesJson(messages: readonly Message[]): string {
  return safeJson(messages.map(chatMessage));
}

export function systemInstructionsJson(system: string): string {
  return safeJson([{ type: 'text', content: system }]);
}

export function outputMessagesJson(text: string, toolCalls: readonly ToolCall[], finishReason: string): string {
  const parts: unknown[] = [];
  if (text) parts.push({ type: 'text', content: text });
  for (const call of toolCalls) parts.push(toolCallPart(call));
  return safeJson([{ role: 'assistant', parts, finish_reason: finishReason }]);
}

/** A value as JSON text (tool arguments and results); never throws. */
export function safeJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"[not JSON-serializable]"';
  }
}

function chatMessage(message: Message): unknown {
  if (message.role === 'tool') {
    return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.toolCallId, response: contentText(message.content) }] };
  }
  const parts: unknown[] = typeof message.content === 'string' ? (message.content ? [{ type: 'text', content: message.content }] : []) : message.content.map(contentPart);
  for (const call of message.toolCalls ?? []) parts.push(toolCallPart(call));
  return { role: message.role, parts };
}

function contentPart(part: ContentPart): unknown {
  if (part.type === 'text') return { type: 'text', content: part.text };
  if (part.type === 'image') return { type: 'blob', modality: 'image', ...(part.mimeType ? { mime_type: part.mimeType } : {}), content: '' };
  return { type: 'blob', modality: part.mimeType.startsWith('image/') ? 'image' : 'file', mime_type: part.mimeType, content: '' };
}

function contentText(content: Message['content']): string {
  return typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function toolCallPart(call: ToolCall): unknown {
  let args: unknown = call.arguments;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    // The model's raw text, kept as it was.
  }
  return { type: 'tool_call', id: call.id, name: call.name, arguments: args };
}
