import { createAgent, createFlowAgent, FlowBuilder, type AgentInput, type AgentStore, type LLMProvider } from '@lousho/build-ai-agent';
import { z } from 'zod';
import { CLASSIFY_PROMPT, createTriageModel, DRAFT_PROMPT } from './triage-model.js';

/** A reply the triage flow "sent" (into an in-memory outbox: nothing leaves the demo). */
export interface TriageReply {
  message: string;
  reply: string;
  category: string;
  note?: string;
}

export interface TriageFlowOptions {
  /** The model (default: the offline triage model). */
  provider?: LLMProvider;
  /** Pause per streamed character of the offline model, in ms (default 4; 0 for tests). */
  charDelayMs?: number;
  /** Where `send` puts what it sends (default: a new array). */
  outbox?: TriageReply[];
}

/**
 * The demo's triage flow: an agent classifies a support message, a oneOf picks the matching
 * writer, an agent drafts the reply, a person approves it, and it is "sent" into the outbox.
 */
export function createTriageFlow(options: TriageFlowOptions = {}) {
  const provider = options.provider ?? createTriageModel(options.charDelayMs !== undefined ? { charDelayMs: options.charDelayMs } : {});
  const outbox = options.outbox ?? [];
  const classifier = createAgent({ name: 'triage-classifier', provider, instructions: 'You sort customer support messages. Answer with one word: refund, bug or question.' });
  const writer = createAgent({ name: 'triage-writer', provider, instructions: 'You draft short, friendly replies to customer support messages.' });
  const draft = (category: string) => `${DRAFT_PROMPT} (${category}).\nMessage: {{input.message}}`;

  return FlowBuilder.create('triage', { input: z.object({ message: z.string().trim().min(1, 'Write the customer message first.').max(2000) }) })
    .agent('classify', { agent: classifier, input: `${CLASSIFY_PROMPT}\nMessage: {{input.message}}`, label: 'Classify' })
    .oneOf('route', {
      branches: [
        { when: "classify === 'refund'", then: 'refund' },
        { when: "classify === 'bug'", then: 'bug' },
      ],
      otherwise: 'answer',
      label: 'Route',
    })
    .agent('refund', { agent: writer, input: draft('refund'), after: 'route', label: 'Draft: refund' })
    .agent('bug', { agent: writer, input: draft('bug'), after: 'route', label: 'Draft: bug report' })
    .agent('answer', { agent: writer, input: draft('question'), after: 'route', label: 'Draft: answer' })
    .approval('review', {
      title: 'the drafted reply',
      data: (vars) => vars.refund ?? vars.bug ?? vars.answer ?? '',
      after: { any: ['refund', 'bug', 'answer'] },
      label: 'Review',
    })
    .step(
      'send',
      (vars) => {
        const sent: TriageReply = {
          message: vars.input.message,
          reply: vars.refund ?? vars.bug ?? vars.answer ?? '',
          category: vars.classify,
          ...(vars.review.note !== undefined ? { note: vars.review.note } : {}),
        };
        outbox.push(sent);
        return { sent: true, id: `reply_${outbox.length}` };
      },
      { label: 'Send' },
    )
    .build();
}

export type TriageFlow = ReturnType<typeof createTriageFlow>;

export interface TriageAgentOptions extends TriageFlowOptions {
  /** Where sessions, checkpoints and approvals live (default: in memory). */
  store?: AgentStore;
}

/** The triage flow served like an agent: a message is the customer's text, the run answers with what happened to the reply. */
export function createTriageAgent(options: TriageAgentOptions = {}) {
  const outbox = options.outbox ?? [];
  const flow = createTriageFlow({ ...options, outbox });
  const agent = createFlowAgent(flow, {
    ...(options.store ? { store: options.store } : {}),
    input: (input: AgentInput) => ({ message: typeof input === 'string' ? input : messageText(input) }),
    reply: (result) =>
      result.outputs.send
        ? `Reply ${result.outputs.send.id} sent.`
        : result.outputs.review && !result.outputs.review.approved
          ? `Not sent${result.outputs.review.note ? `: ${result.outputs.review.note}` : '.'}`
          : undefined,
  });
  return Object.assign(agent, { outbox: outbox as readonly TriageReply[] });
}

export type TriageAgent = ReturnType<typeof createTriageAgent>;

function messageText(input: Exclude<AgentInput, string>): string {
  return input.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

/** Example support messages, one per branch of the flow. */
export const triageSuggestions = Object.freeze([
  Object.freeze({ label: 'Refund', prompt: 'I was charged twice for my order #4417, can I get my money back?' }),
  Object.freeze({ label: 'Bug report', prompt: 'The app crashes every time I open the settings page.' }),
  Object.freeze({ label: 'Question', prompt: 'Do you ship to Canada, and how long does it take?' }),
]);
