import {
  ERROR_CODES,
  SDKError,
  textOf,
  throwIfAborted,
  type GenerateOptions,
  type LLMProvider,
  type ProviderUsage,
  type StreamChunk,
} from '@lousho/build-ai-agent';
import { readUserIntent } from './intents.js';
import type { DemoReply } from './planned-call.js';
import { callId, checkCallIds, switchedCallIds, type DemoCallIds } from './call-ids.js';
import { DEMO_MODEL_ID, DEMO_PROVIDER_NAME } from './notice.js';
import { pause } from './pause.js';
import { chatReply, echoReply, htmlReply, missingToolsReply } from './replies.js';
import { announceCalls, answerFromResults } from './results.js';
import { saveAfterResearch } from './researcher-steps.js';
import { DEMO_SUMMARY_MODEL_ID, summarizeConversation } from './summary.js';

export type { DemoReply } from './planned-call.js';

export interface DemoModelOptions {
  /**
   * Pause per character streamed, in ms (default 4, so a short word arrives every ~20 ms and the
   * reply reads like typing). 0 streams without any timer, for tests.
   */
  charDelayMs?: number;
  /** Words per text chunk (default 1). */
  wordsPerChunk?: number;
  /**
   * How calls are named (see `DemoCallIds`): `unique` random ids, or `per-response` (`call_0`, …
   * in every response). Default: what the demo switch says (`LOUSHO_DEMO_CALL_IDS` on a server,
   * `localStorage['lousho:demo:call-ids']` in a page), else `unique`.
   */
  callIds?: DemoCallIds;
}

export const DEFAULT_CHAR_DELAY_MS = 4;

/** Argument JSON is streamed in pieces of this many characters, like real providers do. */
const ARGUMENT_PIECE = 12;

export const DEMO_MODEL_FAILURE_MESSAGE = 'The demo model failed on purpose (you asked it to).';

/** What the demo model throws for "simulate error": a provider failure (`LOUSHO_PROVIDER_ERROR`) with a fixed message. */
export class DemoModelFailure extends SDKError {
  constructor() {
    super(ERROR_CODES.LOUSHO_PROVIDER_ERROR, DEMO_MODEL_FAILURE_MESSAGE, {
      hint: 'Send a message without "simulate error" to get a normal reply.',
    });
    this.name = 'DemoModelFailure';
  }
}

/**
 * The offline demo model: deterministic, no network, no API key. It reads the latest message,
 * picks tools by keywords, and once results are back writes its answer from them. Runs the same in
 * Node and in browsers.
 */
export function createDemoModel(options: DemoModelOptions = {}): LLMProvider {
  const charDelayMs = options.charDelayMs ?? DEFAULT_CHAR_DELAY_MS;
  const wordsPerChunk = options.wordsPerChunk ?? 1;
  if (!Number.isFinite(charDelayMs) || charDelayMs < 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createDemoModel(): charDelayMs must be a finite number >= 0, got ${String(charDelayMs)}.`, {
      hint: 'Use e.g. 4 for a readable pace, or 0 to stream at once (tests).',
    });
  }
  if (!Number.isInteger(wordsPerChunk) || wordsPerChunk < 1) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createDemoModel(): wordsPerChunk must be a positive integer, got ${String(wordsPerChunk)}.`, {
      hint: 'Use 1 (the default) to stream word by word, or a larger whole number.',
    });
  }
  const ids = options.callIds === undefined ? switchedCallIds() : checkCallIds(options.callIds, 'createDemoModel(): callIds');
  return Object.freeze({
    name: DEMO_PROVIDER_NAME,
    defaultModel: DEMO_MODEL_ID,
    stream: (request: GenerateOptions) => streamReply(request, charDelayMs, wordsPerChunk, ids),
  });
}

/**
 * What the demo model answers to a request; pure, so the same request always gets the same reply.
 * Asked as `DEMO_SUMMARY_MODEL_ID` (compaction's summaries), it summarizes the conversation it is given.
 */
export function decideDemoReply(request: Pick<GenerateOptions, 'messages' | 'tools' | 'model'>): DemoReply {
  const { messages } = request;
  const last = messages[messages.length - 1];
  if (request.model === DEMO_SUMMARY_MODEL_ID) return { text: summarizeConversation(last ? textOf(last) : ''), calls: [] };
  const offered = new Set((request.tools ?? []).map((tool) => tool.name));
  if (last?.role === 'tool') return saveAfterResearch(messages, offered) ?? { text: answerFromResults(messages), calls: [] };
  const intent = readUserIntent(last?.role === 'user' ? textOf(last) : '', offered);
  switch (intent.kind) {
    case 'fail':
      throw new DemoModelFailure();
    case 'echo':
      return { text: echoReply(intent.text), calls: [] };
    case 'html':
      return { text: htmlReply(intent.text), calls: [] };
    case 'chat':
      return { text: chatReply(intent.text, offered), calls: [] };
    case 'tools': {
      const usable = intent.calls.filter((call) => offered.has(call.name));
      if (usable.length === 0) return { text: missingToolsReply([...new Set(intent.calls.map((c) => c.name))], offered), calls: [] };
      return { text: announceCalls(usable), calls: usable };
    }
  }
}

async function* streamReply(request: GenerateOptions, charDelayMs: number, wordsPerChunk: number, ids: DemoCallIds): AsyncGenerator<StreamChunk> {
  const { signal } = request;
  throwIfAborted(signal);
  const reply = decideDemoReply(request);
  let replyChars = reply.text.length;

  for (const piece of splitIntoWords(reply.text, wordsPerChunk)) {
    await pause(charDelayMs * piece.length, signal);
    yield { type: 'text-delta', text: piece };
  }
  for (const [index, call] of reply.calls.entries()) {
    const args = JSON.stringify(call.args);
    replyChars += call.name.length + args.length;
    await pause(charDelayMs * call.name.length, signal);
    // Unique ids, as the big providers make them (a transcript's length is not unique: compaction shortens it).
    yield { type: 'tool-call-start', index, id: callId(ids, index), name: call.name };
    for (const piece of splitEvery(args, ARGUMENT_PIECE)) {
      await pause(charDelayMs * piece.length, signal);
      yield { type: 'tool-call-delta', index, argumentsDelta: piece };
    }
  }
  throwIfAborted(signal);
  yield { type: 'finish', finishReason: reply.calls.length > 0 ? 'tool_calls' : 'stop', usage: estimateUsage(request, replyChars) };
}

/** Groups of `words` words, each with the whitespace before it; the pieces join back to the text. */
export function splitIntoWords(text: string, words: number): string[] {
  const tokens = text.match(/\s*\S+(?:\s+$)?|\s+$/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < tokens.length; i += words) pieces.push(tokens.slice(i, i + words).join(''));
  return pieces;
}

/** Pieces of `size` characters, never splitting an emoji or other astral character. */
function splitEvery(text: string, size: number): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}

/** About four characters per token, counted the way a provider bills: instructions, transcript and tool schemas in, reply out. */
function estimateUsage(request: GenerateOptions, replyChars: number): ProviderUsage {
  let promptChars = request.system?.length ?? 0;
  for (const message of request.messages) {
    promptChars += textOf(message).length;
    for (const call of message.toolCalls ?? []) promptChars += call.name.length + call.arguments.length;
  }
  for (const tool of request.tools ?? []) promptChars += tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
  return { promptTokens: Math.max(1, Math.ceil(promptChars / 4)), completionTokens: Math.max(1, Math.ceil(replyChars / 4)) };
}
