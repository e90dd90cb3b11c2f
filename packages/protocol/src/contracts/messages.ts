/**
 * The transcript: what the model sees and what a session keeps.
 * Everything here is plain JSON so it can be checkpointed, sent over the wire and compared.
 */

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** Text in a message's content list. */
export interface TextPart {
  type: 'text';
  text: string;
}

/** An image in a user message; the built-in providers send it to vision models. */
export interface ImagePart {
  type: 'image';
  /** A URL (https: or data:) or base64 data. */
  image: string;
  /** E.g. `image/png`; read from a data: URL when left out. */
  mimeType?: string;
}

/** A file in a user message (a PDF, ...), for providers that accept files. */
export interface FilePart {
  type: 'file';
  /** A URL (https: or data:) or base64 data. */
  data: string;
  /** E.g. `application/pdf`. */
  mimeType: string;
  /** The name shown to the model, where the provider supports one. */
  filename?: string;
}

/**
 * A file uploaded to the agent's file store (`POST /sessions/:id/files`, `client.upload()`): the
 * transcript and the event log keep this reference, never the bytes; the model gets the bytes in
 * its provider's format when it is called (an image as an image, any other file as a file).
 */
export interface AttachmentPart {
  type: 'attachment';
  /** The store's id of the file (`f_` and 32 hex digits). */
  fileId: string;
  /** The name it was uploaded with (cleaned). */
  name: string;
  /** Its media type, e.g. `image/png`. */
  mimeType: string;
  /** Its size in bytes. */
  size: number;
}

/** One part of a message's content: text, an image, a file or an uploaded attachment (see `textOf()` for the text alone). */
export type ContentPart = TextPart | ImagePart | FilePart | AttachmentPart;

/** A call the model asked for. `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * One message of a transcript: the user's input, the model's reply (with the tool calls it made),
 * or a tool's result. Plain JSON, so it can be checkpointed and sent over the wire.
 */
export interface Message {
  /** Who speaks: `user`, `assistant`, `tool` (a tool result) or `system`. */
  role: Role;
  /** A string, or content parts (text, images, files). */
  content: string | ContentPart[];
  /** Assistant turns: the calls the model made in this turn, in the model's order. */
  toolCalls?: ToolCall[];
  /** Tool messages: the call this result answers. */
  toolCallId?: string;
  /** Tool messages: the tool's name. */
  toolName?: string;
  /** Tool messages: true when the content is a tool error result. */
  isError?: boolean;
  /** Free-form, JSON-serializable data that never reaches the model (e.g. `replacedByHook`). */
  metadata?: Record<string, unknown>;
}

/** Input a user can give to a run: a string, content parts, or whole messages. */
export type AgentInput = string | ContentPart[] | Message[];
