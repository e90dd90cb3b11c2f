import type { Message } from './messages.js';

/** A JSON Schema object, as sent to providers. */
export type JSONSchema = Record<string, unknown>;

/** What a provider is told about one tool. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: JSONSchema;
}

/** Token counts as a provider reports them. A backend that reports nothing leaves this unset. */
export interface ProviderUsage {
  promptTokens?: number;
  completionTokens?: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

/** The model's own reason for ending a turn. */
export type ModelFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

/** One model call: what a provider is asked (the transcript, the tools, the model and its settings). */
export interface GenerateOptions {
  /** The model id to use; a provider falls back to its own default when unset. */
  model?: string;
  /** System instructions, kept apart from the transcript (providers place them as their API wants). */
  system?: string;
  /**
   * The transcript to continue (no system message). Read-only: the agent passes its live transcript
   * without copying it, so a provider must not mutate it or keep it past the call.
   */
  messages: readonly Message[];
  tools?: ToolSpec[];
  /** Structured output hint: providers that support JSON mode map it. */
  responseFormat?: { type: 'json'; schema?: JSONSchema };
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

/**
 * Streaming is the primary provider contract. A provider yields text as it arrives, tool calls
 * (optionally in pieces) and exactly one `finish` chunk at the end.
 */
export type StreamChunk =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /** A tool call begins; `index` orders calls within the turn. */
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  /** A piece of a started call's JSON arguments. */
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  /** A complete tool call (providers that do not stream arguments send only this). */
  | { type: 'tool-call'; index: number; id: string; name: string; arguments: string }
  | { type: 'finish'; finishReason: ModelFinishReason; usage?: ProviderUsage };

/** A whole model reply: its text, the tool calls it made (arguments as raw JSON text) and why it ended. */
export interface GenerateResult {
  text: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: ModelFinishReason;
  /** Unset when the backend reports no usage (never zeros for unknown). */
  usage?: ProviderUsage;
}

/**
 * What runs a model: the built-in providers, `mockModel()`, `fromAISDKModel()`, or your own. Only
 * `stream()` is required. A provider throws `SDKError`s (`LOUSHO_PROVIDER_ERROR`, ...) on failure,
 * and stops when `options.signal` aborts.
 */
export interface LLMProvider {
  /** Provider name, e.g. `openai` or `mock`. */
  readonly name: string;
  /** The model used when a request names none. */
  readonly defaultModel?: string;
  /** Runs one model call, yielding text, tool calls and exactly one `finish` chunk. */
  stream(options: GenerateOptions): AsyncIterable<StreamChunk>;
  /** Optional one-shot call; `generate()` from this module derives it from `stream()`. */
  generate?(options: GenerateOptions): Promise<GenerateResult>;
}
