import { McpToolError } from '@lousho/core';
import { isJsonObject, type JsonObject } from './json-schema/json-value.js';

/** A content part of a result, as the tool returns it; unknown part types are wrapped, not dropped. */
export type McpContentPart =
  | { type: 'text'; text: string; [key: string]: unknown }
  | { type: 'image' | 'audio'; data: string; mimeType: string; [key: string]: unknown }
  | { type: 'resource'; resource: JsonObject; [key: string]: unknown }
  | { type: 'resource_link'; uri: string; name: string; [key: string]: unknown }
  | { type: 'unknown'; raw: unknown };

/** What a successful MCP call returns to the agent (JSON-serializable). */
export type McpToolResult =
  | JsonObject
  | { text: string; content: McpContentPart[] }
  | { structuredContent: JsonObject; text: string; content: McpContentPart[] };

const KNOWN_PART_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/**
 * Turns a `tools/call` result into the tool's result. `isError: true` throws `McpToolError` with
 * the server's text (the model gets `{ error: 'McpToolError', kind: 'mcp', ... }`).
 */
export function toToolResult(result: unknown, toolName: string): unknown {
  const answer = isJsonObject(result) ? result : {};
  const parts = (Array.isArray(answer.content) ? answer.content : []).map(toPart);
  const text = parts
    .filter((part): part is Extract<McpContentPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  if (answer.isError === true) throw new McpToolError(toolName, text);

  const structured = answer.structuredContent;
  if (isJsonObject(structured)) {
    const others = parts.filter((part) => part.type !== 'text');
    // Images, audio and resources are never dropped for the structured object.
    return others.length === 0 ? structured : { structuredContent: structured, text, content: others };
  }
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of content.
  if (!Array.isArray(answer.content) && 'toolResult' in answer) return answer.toolResult;
  return { text, content: parts };
}

function toPart(part: unknown): McpContentPart {
  if (!isJsonObject(part) || typeof part.type !== 'string' || !KNOWN_PART_TYPES.has(part.type)) return { type: 'unknown', raw: part };
  if (part.type === 'text' && typeof part.text !== 'string') return { type: 'unknown', raw: part };
  return part as McpContentPart;
}
