import type { ContentPart, Message } from '@lousho/protocol';

/**
 * Counts the tokens of one piece of text (a real tokenizer, e.g. tiktoken). Lousho calls it for
 * every text piece of the input and adds the structure around them (per-message overhead, tool-call
 * wrappers, images) itself.
 */
export type TokenEstimator = (text: string, context: { model?: string }) => number;

/** Options of `estimateTokens()`: the model, and an estimator to use instead of the heuristic. */
export interface EstimateTokensOptions {
  /** The model the text is for; passed on to the estimator. */
  model?: string;
  /** A tokenizer for this call only; wins over `setTokenEstimator`. */
  estimator?: TokenEstimator;
}

/** What a chat format adds around each message (role, separators). */
const MESSAGE_OVERHEAD = 4;
/** Chat formats prime the assistant's reply once per request. */
const REPLY_PRIMING = 3;
/** The wrapper around one tool call (id, type, name/arguments keys). */
const TOOL_CALL_OVERHEAD = 4;
/** A mid-sized image: providers bill roughly 750-1,600 tokens per ~1 megapixel. */
const IMAGE_TOKENS = 1_000;

/**
 * An uploaded image, whose size is known: a small one (an icon, a screenshot of a few words) costs
 * less than a photo. The 85 tokens every image costs at least (OpenAI's low-detail price), and about
 * one more per 200 bytes of compressed image, up to `IMAGE_TOKENS`.
 */
const attachedImageTokens = (bytes: number): number => Math.min(IMAGE_TOKENS, 85 + Math.ceil(bytes / 200));
/** Files are counted by size: base64 carries 3 bytes per 4 chars, about 4 bytes per token. */
const FILE_TOKENS_PER_BASE64_CHAR = 3 / 16;

let globalEstimator: TokenEstimator | undefined;

/**
 * Plugs a real tokenizer in for every later `estimateTokens` call (pass `undefined` to go back to
 * the built-in heuristic). `options.estimator` still wins per call.
 */
export function setTokenEstimator(estimator: TokenEstimator | undefined): void {
  globalEstimator = estimator;
}

/**
 * Estimates how many tokens some text, a message or a transcript takes. The built-in heuristic
 * (about 4 characters per token for English, more tokens per character for CJK and other scripts)
 * is good for budgets and context decisions, not for billing. A transcript also counts each
 * message's overhead and its tool calls' JSON. The cost is linear in the size of the input.
 */
export function estimateTokens(input: string | Message | readonly Message[], options: EstimateTokensOptions = {}): number {
  const estimator = options.estimator ?? globalEstimator;
  const context = options.model === undefined ? {} : { model: options.model };
  const countText = (text: string): number => {
    if (text.length === 0) return 0;
    if (estimator) {
      const n = estimator(text, context);
      // A broken tokenizer must not break budgets: fall back to the heuristic for that piece.
      if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return n;
    }
    return heuristicTokens(text);
  };

  let total: number;
  if (typeof input === 'string') {
    total = countText(input);
  } else if (Array.isArray(input)) {
    const messages = input as readonly Message[];
    total = messages.length === 0 ? 0 : REPLY_PRIMING;
    for (const message of messages) total += messageTokens(message, countText);
  } else if (input && typeof input === 'object') {
    total = messageTokens(input as Message, countText);
  } else {
    total = 0;
  }
  return Math.ceil(total);
}

function messageTokens(message: Message, countText: (text: string) => number): number {
  if (!message || typeof message !== 'object') return 0;
  let total = MESSAGE_OVERHEAD;
  const { content } = message;
  if (typeof content === 'string') total += countText(content);
  else if (Array.isArray(content)) for (const part of content) total += partTokens(part, countText);
  if (Array.isArray(message.toolCalls)) {
    for (const call of message.toolCalls) {
      total += TOOL_CALL_OVERHEAD + countText(String(call?.name ?? '')) + countText(String(call?.arguments ?? ''));
    }
  }
  if (typeof message.toolName === 'string') total += 1 + countText(message.toolName);
  // `metadata` never reaches the model, so it costs nothing.
  return total;
}

function partTokens(part: ContentPart, countText: (text: string) => number): number {
  switch (part?.type) {
    case 'text':
      return countText(part.text ?? '');
    case 'image':
      return IMAGE_TOKENS;
    case 'file':
      return Math.ceil((part.data?.length ?? 0) * FILE_TOKENS_PER_BASE64_CHAR);
    case 'attachment':
      // Counted as what it becomes for the model: an image, or a file of this many bytes (4/3 as base64).
      return String(part.mimeType).startsWith('image/') ? attachedImageTokens(Number(part.size) || 0) : Math.ceil(((Number(part.size) || 0) * 4) / 3 * FILE_TOKENS_PER_BASE64_CHAR);
    default:
      return 0;
  }
}

/**
 * The built-in heuristic: a weight per UTF-16 unit, summed. Weights come from how BPE tokenizers
 * (cl100k/o200k, Claude's) split typical text in each script.
 */
function heuristicTokens(text: string): number {
  let total = 0;
  for (let i = 0; i < text.length; i++) total += unitWeight(text.charCodeAt(i));
  return total;
}

function unitWeight(c: number): number {
  if (c < 0x80) {
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c <= 0x20) return 0.25; // letters, whitespace
    if (c >= 0x30 && c <= 0x39) return 1 / 3; // numbers split into groups of up to 3 digits
    return 0.5; // punctuation and symbols often stand alone (code, JSON)
  }
  if (c < 0x370) return 0.5; // accented Latin, IPA, combining marks: they break words apart
  if (c < 0x800) return 0.4; // Greek, Cyrillic, Armenian, Hebrew, Arabic
  if (c >= 0xd800 && c <= 0xdfff) return 0.75; // each half of a pair: emoji and rare CJK ~1.5 tokens
  if (
    (c >= 0x2e80 && c <= 0x9fff) || // CJK radicals, punctuation, kana, unified ideographs
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0xf900 && c <= 0xfaff) || // CJK compatibility ideographs
    (c >= 0xff00 && c <= 0xffef) // full-width forms
  ) {
    return 1;
  }
  if (c < 0x1100) return 0.75; // Indic, Thai, Lao, Tibetan, Myanmar, Georgian
  return 0.5; // other symbols and scripts
}
