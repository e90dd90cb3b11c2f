import type { ContentPart, Message, AgentInput } from './contracts/messages.js';
export type { Role, TextPart, ImagePart, FilePart, AttachmentPart, ContentPart, ToolCall, Message, AgentInput } from './contracts/messages.js';
/**
 * The transcript: what the model sees and what a session keeps.
 * Everything here is plain JSON so it can be checkpointed, sent over the wire and compared.
 */

/** The text of a message: its string content, or its text parts joined. */
export function textOf(message: Pick<Message, 'content'> | undefined | null): string {
  if (!message) return '';
  const { content } = message;
  if (typeof content === 'string') return content;
  let out = '';
  for (const part of content) if (part.type === 'text') out += part.text;
  return out;
}

/** Turns a run's input into the user messages it appends to the transcript. */
export function inputToMessages(input: AgentInput): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (input.length === 0) return [];
  if (isMessageArray(input)) return input.map((m) => ({ ...m }));
  return [{ role: 'user', content: input as ContentPart[] }];
}

function isMessageArray(input: ContentPart[] | Message[]): input is Message[] {
  const first = input[0] as { role?: unknown } | undefined;
  return typeof first?.role === 'string';
}
