import { estimateTokens, generateFromStream, resolveProvider, stripJsonFence, UsageTracker, type LLMProvider, type Message } from '@lousho/core';
import { evalError } from '../errors.js';
import type { EvalOutput, Scorer } from '../types.js';

/** Options of `llmJudge()`: the judge model, the rubric it grades by, and its name. */
export interface LlmJudgeOptions {
  /** The judge: a provider, or a model string such as `'openai/gpt-4o-mini'` (resolved from the environment on first use). */
  model: LLMProvider | string;
  /** What a good reply is, in your words: the judge grades against it. */
  rubric: string;
  /** The column and check name (default `llmJudge`). */
  name?: string;
}

/** The judge's instructions: fixed, so scores stay comparable across runs and rubrics. */
export const LLM_JUDGE_SYSTEM_PROMPT = [
  'You are an impartial grader of an AI assistant’s work.',
  'You get a rubric, the input the assistant was given, the reference answer when there is one, the tools the assistant called, and its final reply.',
  'Grade the reply against the rubric only. Do not reward length or style the rubric does not ask for. A reference answer shows what is expected; a reply may word it differently.',
  'Give a score from 0 to 1: 1 when the reply fully meets the rubric, 0 when it does not meet it at all, values in between for partial success.',
  'Answer with one JSON object and nothing else: {"reason": "<one or two sentences>", "score": <number from 0 to 1>}.',
].join('\n');

const RESPONSE_SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string' }, score: { type: 'number', minimum: 0, maximum: 1 } },
  required: ['reason', 'score'],
  additionalProperties: false,
} as const;

/** The judge's user message: the rubric and the run, each in its own tagged block. */
export function judgePrompt(rubric: string, input: unknown, expected: unknown, output: EvalOutput): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  const blocks = [`<rubric>\n${rubric}\n</rubric>`, `<input>\n${text(input)}\n</input>`];
  if (expected !== undefined) blocks.push(`<reference_answer>\n${text(expected)}\n</reference_answer>`);
  if (output.toolCalls.length > 0) blocks.push(`<tool_calls>\n${output.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.args)})${c.isError ? ' → failed' : ''}`).join('\n')}\n</tool_calls>`);
  blocks.push(`<reply>\n${output.text}\n</reply>`);
  return blocks.join('\n\n');
}

/**
 * A judge model grades each run against `rubric` with a fixed prompt (`LLM_JUDGE_SYSTEM_PROMPT`,
 * temperature 0, a JSON reply `{ reason, score }`). Its usage is reported apart from the runs' own.
 * A reply that is not such an object fails the run's scoring with `LOUSHO_EVAL_JUDGE_INVALID`.
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  if (!options || (typeof options.model !== 'string' && typeof options.model?.stream !== 'function')) {
    throw evalError('LOUSHO_EVAL_INVALID', 'llmJudge() needs a `model`: a provider or a model string.', "llmJudge({ model: 'openai/gpt-4o-mini', rubric: 'Answers the question politely.' })");
  }
  if (typeof options.rubric !== 'string' || options.rubric.trim() === '') {
    throw evalError('LOUSHO_EVAL_INVALID', 'llmJudge() needs a `rubric`: what a good reply is.', "llmJudge({ model, rubric: 'Offers a refund and names the order.' })");
  }
  let provider: LLMProvider | undefined = typeof options.model === 'string' ? undefined : options.model;
  const modelString = typeof options.model === 'string' ? options.model : undefined;
  return {
    kind: 'scorer',
    name: options.name ?? 'llmJudge',
    async score({ input, expected, output, signal }) {
      provider ??= resolveProvider(modelString!);
      const messages: Message[] = [{ role: 'user', content: judgePrompt(options.rubric, input, expected, output) }];
      const model = provider.defaultModel ?? modelString ?? provider.name;
      const reply = await generateFromStream(provider, {
        system: LLM_JUDGE_SYSTEM_PROMPT,
        messages,
        ...(provider.defaultModel ? { model: provider.defaultModel } : {}),
        temperature: 0,
        responseFormat: { type: 'json', schema: RESPONSE_SCHEMA as never },
        signal,
      });
      const usage = new UsageTracker();
      usage.record({
        model,
        reported: reply.usage,
        estimateInput: () => estimateTokens([{ role: 'system', content: LLM_JUDGE_SYSTEM_PROMPT }, ...messages], { model }),
        estimateOutput: () => estimateTokens({ role: 'assistant', content: reply.text }, { model }),
      });
      const verdict = parseVerdict(reply.text);
      if (!verdict) {
        throw evalError('LOUSHO_EVAL_JUDGE_INVALID', `The judge (${model}) did not answer with {"reason", "score" from 0 to 1}: "${reply.text.slice(0, 200)}"`, 'Use a model that follows JSON instructions, or check its reply above.');
      }
      return { ...verdict, usage: usage.snapshot() };
    },
  };
}

function parseVerdict(text: string): { score: number; reason: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(stripJsonFence(text));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { score, reason } = value as { score?: unknown; reason?: unknown };
  if (typeof score !== 'number' || !(score >= 0 && score <= 1) || typeof reason !== 'string') return undefined;
  return { score, reason };
}
