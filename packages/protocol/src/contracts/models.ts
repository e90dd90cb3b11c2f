/** What Lousho knows about a model: its context window and, when known, its prices. */
export interface ModelInfo {
  /** The id you pass as the model, e.g. `gpt-4o-mini` or `my-llama`. */
  id: string;
  /** Who serves it, e.g. `openai`, `anthropic`, `ollama`, `openrouter`. */
  provider: string;
  /** Tokens the model can see at once (prompt + output). */
  contextWindow: number;
  /** USD per million input tokens; leave unset when unknown or free. */
  inputCostPerMTok?: number;
  /** USD per million output tokens; leave unset when unknown or free. */
  outputCostPerMTok?: number;
  /** USD per million input tokens read from the provider's prompt cache. */
  cachedInputCostPerMTok?: number;
  maxOutputTokens?: number;
}
