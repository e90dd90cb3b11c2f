import type { ContentPart, Message } from '@lousho/core';
import type { ContentPart as AgUiPart, Message as AgUiMessage } from '@ag-ui/core';
import { invalidInput } from './errors.js';
import { resultText } from './mapper.js';

/** A Lousho transcript as AG-UI messages (for `MESSAGES_SNAPSHOT`); ids are the message's place in the thread. */
export function toAgUiMessages(messages: readonly Message[], threadId: string): AgUiMessage[] {
  const out: AgUiMessage[] = [];
  messages.forEach((message, index) => {
    const id = `${threadId}:${index}`;
    if (message.role === 'user') out.push({ id, role: 'user', content: typeof message.content === 'string' ? message.content : message.content.map(toAgUiPart) });
    else if (message.role === 'assistant') {
      const content = textOf(message.content);
      const toolCalls = (message.toolCalls ?? []).map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }));
      out.push({ id, role: 'assistant', ...(content && { content }), ...(toolCalls.length > 0 && { toolCalls }) });
    } else if (message.role === 'tool') {
      const content = typeof message.content === 'string' ? message.content : resultText(message.content);
      out.push({ id, role: 'tool', toolCallId: message.toolCallId ?? '', content, ...(message.isError && { error: content }) });
    }
  });
  return out;
}

/**
 * AG-UI messages as a run's input. `system` and `developer` messages are refused: an agent's
 * instructions are its server's, never the client's. Reasoning and activity messages are the
 * client's display of past runs and are not sent to the model.
 */
export function fromAgUiMessages(messages: readonly AgUiMessage[]): Message[] {
  const out: Message[] = [];
  messages.forEach((message, index) => {
    const at = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        throw invalidInput(`${at}: ${message.role} messages are not accepted; the agent's instructions are set on the server.`);
      case 'user':
        out.push({ role: 'user', content: typeof message.content === 'string' ? message.content : message.content.map((part, i) => fromAgUiPart(part, `${at}.content[${i}]`)) });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: message.content ?? '',
          ...(message.toolCalls?.length && { toolCalls: message.toolCalls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })) }),
        });
        break;
      case 'tool':
        out.push({ role: 'tool', toolCallId: message.toolCallId, content: typeof message.content === 'string' ? message.content : textOf(message.content.map((part, i) => fromAgUiPart(part, `${at}.content[${i}]`))), ...(message.error !== undefined && { isError: true }) });
        break;
      default:
        break;
    }
  });
  return out;
}

function toAgUiPart(part: ContentPart): AgUiPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'image') return { type: 'image', source: sourceOf(part.image, part.mimeType) };
  // An uploaded file is a reference into the agent's file store, which AG-UI cannot fetch: its name shows instead.
  if (part.type === 'attachment') return { type: 'text', text: `[Attached file: ${part.name} (${part.mimeType}, ${part.size} bytes)]` };
  return { type: 'document', source: sourceOf(part.data, part.mimeType) };
}

function sourceOf(value: string, mimeType: string | undefined): { type: 'url'; value: string; mimeType?: string } | { type: 'data'; value: string; mimeType: string } {
  if (/^(https?:|data:)/i.test(value) || !mimeType) return { type: 'url', value, ...(mimeType && { mimeType }) };
  return { type: 'data', value, mimeType };
}

function fromAgUiPart(part: AgUiPart, at: string): ContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const source = part.source;
  if (source.type === 'file') throw invalidInput(`${at}: file sources (a provider's file id) are not supported; send the data or a URL.`);
  const mimeType = source.mimeType;
  if (part.type === 'image') return { type: 'image', image: source.value, ...(mimeType && { mimeType }) };
  if (part.type === 'document') {
    if (!mimeType) throw invalidInput(`${at}.source.mimeType is needed for a document.`);
    return { type: 'file', data: source.value, mimeType };
  }
  throw invalidInput(`${at}: ${part.type} parts are not supported; send text, images or documents.`);
}

function textOf(content: string | ContentPart[]): string {
  return typeof content === 'string' ? content : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}
