import { textOf, throwIfAborted, type GenerateOptions, type LLMProvider, type StreamChunk } from '@lousho/build-ai-agent';
import { DEFAULT_CHAR_DELAY_MS, splitIntoWords } from '../demo-model.js';
import { DEMO_MODEL_ID, DEMO_PROVIDER_NAME } from '../notice.js';
import { pause } from '../pause.js';

/** What the triage flow sorts support messages into. */
export type TriageCategory = 'refund' | 'bug' | 'question';

/** The first line of the classifier's prompt, and of the writer's; the model answers by them. */
export const CLASSIFY_PROMPT = 'Classify this support message as refund, bug or question. Answer with the one word.';
export const DRAFT_PROMPT = 'Draft a short, friendly reply to this support message';

const REFUND = /\b(?:refunds?|money back|charged|overcharged|reimburs\w*|return(?:ed)?|cancel(?:led)? my order)\b/i;
const BUG = /\b(?:bugs?|errors?|crash\w*|broken|doesn'?t work|not working|fails?|failed)\b/i;

/** The category the offline model gives a message: keyword rules, checked refund first. */
export function classifySupportMessage(message: string): TriageCategory {
  if (REFUND.test(message)) return 'refund';
  if (BUG.test(message)) return 'bug';
  return 'question';
}

/** The reply the offline model drafts for a category. */
export function draftSupportReply(category: TriageCategory, message: string): string {
  const quoted = message.length > 80 ? `${message.slice(0, 77)}...` : message;
  switch (category) {
    case 'refund':
      return `Hi, thank you for reaching out, and sorry about the charge. I have asked our billing team to refund you: you will see it on your statement within 5 business days. (About: "${quoted}")`;
    case 'bug':
      return `Hi, thank you for reporting this. I have passed the details to our engineers with your description ("${quoted}") and will write again as soon as a fix is out.`;
    case 'question':
      return `Hi, thanks for your question ("${quoted}"). Our help center answers most questions like this one; if it does not, reply here and a person from the team will get back to you today.`;
  }
}

/**
 * The offline model of the triage demo: for the classifier's prompt it answers the category, for
 * the writer's prompt it drafts the reply, word by word like the chat's demo model. Deterministic,
 * no network, no API key.
 */
export function createTriageModel(options: { charDelayMs?: number } = {}): LLMProvider {
  const charDelayMs = options.charDelayMs ?? DEFAULT_CHAR_DELAY_MS;
  return Object.freeze({
    name: DEMO_PROVIDER_NAME,
    defaultModel: DEMO_MODEL_ID,
    stream: (request: GenerateOptions) => streamTriage(request, charDelayMs),
  });
}

/** What the model says to a prompt: the category, a draft, or how to use it. */
export function triageReply(prompt: string): string {
  const [first = '', ...rest] = prompt.split('\n');
  const message = rest.join('\n').replace(/^\s*Message:\s*/i, '').trim();
  if (first.startsWith(CLASSIFY_PROMPT)) return classifySupportMessage(message);
  if (first.startsWith(DRAFT_PROMPT)) {
    const category = (/\((refund|bug|question)\)/.exec(first)?.[1] as TriageCategory | undefined) ?? classifySupportMessage(message);
    return draftSupportReply(category, message);
  }
  return 'I am the offline triage model: I classify support messages and draft replies to them.';
}

async function* streamTriage(request: GenerateOptions, charDelayMs: number): AsyncGenerator<StreamChunk> {
  const { signal } = request;
  throwIfAborted(signal);
  const last = request.messages[request.messages.length - 1];
  const text = triageReply(last?.role === 'user' ? textOf(last) : '');
  for (const piece of splitIntoWords(text, 1)) {
    await pause(charDelayMs * piece.length, signal);
    yield { type: 'text-delta', text: piece };
  }
  throwIfAborted(signal);
  const promptChars = request.messages.reduce((sum, message) => sum + textOf(message).length, request.system?.length ?? 0);
  yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: Math.max(1, Math.ceil(promptChars / 4)), completionTokens: Math.max(1, Math.ceil(text.length / 4)) } };
}
