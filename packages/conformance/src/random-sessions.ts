import fc from 'fast-check';
import { z } from 'zod';
import type { AgentClient } from '@lousho/client';
import { createAgent, defineTool, withArtifacts, type AgentStore, type AgentUIState, type GenerateOptions, type LLMProvider, type Message, type StreamChunk, type UIToolPart } from '@lousho/core';

/**
 * Random conversations for the properties that hold whatever a session went through: several
 * turns of reasoning, text and tool calls (with display names, progress and artifacts), calls that
 * fail, approvals approved or rejected with a note, questions answered, browser tools whose page
 * sends a result or an error, turns stopped while they
 * stream, turns whose model fails. `sessionPlans` generates them, `plannedAgent` is an agent that
 * plays one (its model answers from the transcript alone), `playSession` is the person who talks
 * to it through an `AgentClient`.
 */

export type PlannedDecision = { approve: boolean; note?: string } | { answer: string } | { timeZone: string } | { error: string };

export interface PlannedCall {
  tool: 'lookup' | 'flaky' | 'send_email' | 'ask_question' | 'time_zone';
  /** For `send_email` and `ask_question`: what the person decides; for `time_zone` (a browser tool), what the page sends. */
  decision?: PlannedDecision;
}

export interface PlannedStep {
  reasoning: string[];
  text: string[];
  calls: PlannedCall[];
}

export interface PlannedTurn {
  input: string;
  /** Steps that call tools; the turn then ends with `answer` (a last step with text only). */
  steps: PlannedStep[];
  answer: string[];
  /** `stop`: the person stops the turn while its first step streams; `fail`: the model fails then. */
  end: 'answer' | 'stop' | 'fail';
  /**
   * A turn that is stopped: the person first sends another message while it streams, which waits
   * in the queue, then removes it (`removed`) or leaves it waiting (`kept`: the last turn only, as
   * it would run after the next turn).
   */
  queued?: 'removed' | 'kept';
}

export interface SessionPlan {
  turns: PlannedTurn[];
  /**
   * How the model names its calls: `unique` (`call_<turn>_<step>_<index>`), or `per-response`
   * (`call_<index>`, numbered in each response as an OpenAI-compatible server may: the ids come
   * again in every step and turn). Default `unique`.
   */
  ids?: 'unique' | 'per-response';
}

const arbWords = fc.array(fc.constantFrom('Sure', ' thing', ', ', 'let', ' me', ' look', '.', ' Done', ' ✓', ' 東京'), { minLength: 1, maxLength: 4 });
const arbCall: fc.Arbitrary<PlannedCall> = fc.oneof(
  fc.constant<PlannedCall>({ tool: 'lookup' }),
  fc.constant<PlannedCall>({ tool: 'flaky' }),
  fc.record({ tool: fc.constant('send_email' as const), decision: fc.record({ approve: fc.boolean(), note: fc.constantFrom('ok', 'not to externals', 'later, please') }, { requiredKeys: ['approve'] }) }),
  fc.record({ tool: fc.constant('ask_question' as const), decision: fc.record({ answer: fc.constantFrom('Paris', 'Friday', 'yes') }) }),
  fc.record({
    tool: fc.constant('time_zone' as const),
    decision: fc.oneof(fc.record({ timeZone: fc.constantFrom('Europe/Paris', 'Asia/Tokyo', 'UTC') }), fc.record({ error: fc.constantFrom('Intl is not available') })),
  }),
);
const arbStep: fc.Arbitrary<PlannedStep> = fc.record({
  reasoning: fc.array(fc.constantFrom('Think', 'ing.'), { maxLength: 2 }),
  text: fc.array(fc.constantFrom('Checking', ' this', '.'), { maxLength: 3 }),
  calls: fc.array(arbCall, { minLength: 1, maxLength: 2 }),
});

/** Random conversations of 1 to `maxTurns` turns, their call ids unique or numbered per response. */
export function sessionPlans(maxTurns = 4): fc.Arbitrary<SessionPlan> {
  return fc
    .tuple(
      fc.array(
        fc.record({
          steps: fc.array(arbStep, { maxLength: 2 }),
          answer: arbWords,
          end: fc.constantFrom('answer', 'answer', 'answer', 'stop', 'fail' as const),
        }),
        { minLength: 1, maxLength: maxTurns },
      ),
      fc.constantFrom('unique' as const, 'per-response' as const),
    )
    .chain(([turns, ids]) =>
      fc.array(fc.constantFrom(undefined, 'removed' as const, 'kept' as const), { minLength: turns.length, maxLength: turns.length }).map((queued) => ({
        turns: turns.map((turn, i) => {
          // A message left waiting would run as a turn the plan does not have: only after the last one.
          const q = turn.end !== 'stop' ? undefined : queued[i] === 'kept' && i < turns.length - 1 ? 'removed' : queued[i];
          return { ...turn, input: `Turn ${i + 1}`, ...(q ? { queued: q } : {}) };
        }),
        ids,
      })),
    );
}

const callId = (plan: SessionPlan, turn: number, step: number, index: number) => (plan.ids === 'per-response' ? `call_${index}` : `call_${turn}_${step}_${index}`);
/** What the `lookup` and `flaky` calls of a turn's step are asked: it names the call, so a card that shows another call's arguments or result is seen. */
export const plannedQuery = (turn: number, step: number, index: number) => `q${turn}.${step}.${index}`;
/** What a turn that is stopped streams before it waits to be stopped. */
export const STOP_MARKER = 'Working on it';

/** Where the transcript stands: which turn (by its input) and which step of it. */
function position(plan: SessionPlan, messages: readonly Message[]): { turn: number; step: number } {
  let last = messages.length;
  while (last-- > 0 && messages[last]!.role !== 'user');
  const input = messages[last]?.content;
  const turn = plan.turns.findIndex((t) => t.input === input);
  return { turn, step: messages.slice(last + 1).filter((m) => m.role === 'assistant').length };
}

function abortable(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
    if (signal?.aborted) fail();
    signal?.addEventListener('abort', fail, { once: true });
  });
}

/** The model of a plan: each reply is a function of the transcript, streamed in pieces (call arguments too). */
export function plannedModel(plan: SessionPlan): LLMProvider {
  return {
    name: 'planned',
    defaultModel: 'planned-model',
    async *stream(request: GenerateOptions): AsyncIterable<StreamChunk> {
      const { turn, step } = position(plan, request.messages);
      const planned = plan.turns[turn];
      if (!planned) throw new Error(`No turn for ${JSON.stringify(request.messages.at(-1))}.`);
      if (planned.end !== 'answer' && step === 0) {
        yield { type: 'text-delta', text: STOP_MARKER };
        if (planned.end === 'fail') throw new Error('The model is down.');
        await abortable(request.signal);
      }
      const current = planned.steps[step];
      if (!current) {
        for (const text of planned.answer) yield { type: 'text-delta', text };
        yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 4 } };
        return;
      }
      for (const text of current.reasoning) yield { type: 'reasoning-delta', text };
      for (const text of current.text) yield { type: 'text-delta', text };
      for (const [index, call] of current.calls.entries()) {
        const args = JSON.stringify(call.tool === 'ask_question' ? { question: `Which one? ${plannedQuery(turn, step, index)}` } : call.tool === 'send_email' ? { to: `${plannedQuery(turn, step, index)}@example.com` } : { query: plannedQuery(turn, step, index) });
        yield { type: 'tool-call-start', index, id: callId(plan, turn, step, index), name: call.tool };
        yield { type: 'tool-call-delta', index, argumentsDelta: args.slice(0, 5) };
        yield { type: 'tool-call-delta', index, argumentsDelta: args.slice(5) };
      }
      yield { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 4 } };
    },
  };
}

/** The tools a plan calls. */
export function plannedTools() {
  return [
    defineTool({
      name: 'lookup',
      displayName: 'Look up',
      description: 'Looks something up',
      input: z.object({ query: z.string() }),
      async execute({ query }, ctx) {
        ctx.reportProgress?.({ searching: query });
        return withArtifacts({ found: query }, [{ type: 'link', title: 'Source', data: { url: `https://example.com/${query}` } }]);
      },
    }),
    defineTool({
      name: 'flaky',
      displayName: 'Flaky service',
      description: 'Always fails',
      input: z.object({ query: z.string() }),
      async execute() {
        throw new Error('The service is down.');
      },
    }),
    // A browser tool: no execute, the page sends the result.
    defineTool({
      name: 'time_zone',
      displayName: 'Time zone',
      description: "The user's time zone, read in the browser",
      input: z.object({ query: z.string() }),
      outputSchema: z.object({ timeZone: z.string().min(1) }),
    }),
    defineTool({
      name: 'send_email',
      displayName: 'Send email',
      description: 'Sends an email',
      input: z.object({ to: z.string() }),
      needsApproval: true,
      async execute({ to }) {
        return { sent: to };
      },
    }),
  ];
}

/** An agent that plays `plan` on `store`. */
export function plannedAgent(plan: SessionPlan, store?: AgentStore) {
  return createAgent({ provider: plannedModel(plan), tools: plannedTools(), askQuestion: true, maxSteps: 10, ...(store ? { store } : {}) });
}

const until = async (check: () => boolean): Promise<void> => {
  for (let waited = 0; !check(); waited += 2) {
    if (waited > 10_000) throw new Error('playSession: the stream did not show what it should.');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

/** The person: sends each turn's input, decides its approvals and questions, stops the turns meant to be stopped. */
export async function playSession(client: AgentClient, plan: SessionPlan): Promise<void> {
  for (const turn of plan.turns) {
    if (turn.end === 'stop') {
      // Stopped once this turn's reply shows (the user's message, then the reply, after what was there).
      const before = client.getSnapshot().messages.length;
      const sending = client.send(turn.input);
      await until(() => {
        const { messages } = client.getSnapshot();
        return messages.length === before + 2 && JSON.stringify(messages[before + 1]!.parts).includes(STOP_MARKER);
      });
      if (turn.queued) {
        // Sent while the reply streams: it waits (and, stopped, the turn leaves it waiting).
        const waiting = client.getSnapshot().queued?.length ?? 0;
        await client.send(`Queued while ${turn.input} runs`);
        await until(() => (client.getSnapshot().queued?.length ?? 0) === waiting + 1);
        if (turn.queued === 'removed') {
          await client.unqueue(client.getSnapshot().queued!.at(-1)!.id);
          await until(() => (client.getSnapshot().queued?.length ?? 0) === waiting);
        }
      }
      await client.stop();
      await sending;
      continue;
    }
    const decisions = turn.end === 'answer' ? turn.steps.flatMap((step) => step.calls).flatMap((call) => (call.decision ? [call.decision] : [])) : [];
    let result = await client.send(turn.input);
    for (const decision of decisions) {
      if (!result.ok || result.finishReason !== 'awaiting-approval') break;
      result = await decide(client, decision);
    }
  }
}

/** What the person (or, for a browser tool, the page) does about the call the run waits on. */
function decide(client: AgentClient, decision: PlannedDecision) {
  const pending = client.getSnapshot().pendingApproval!;
  if ('timeZone' in decision) return client.submitToolResult(pending.toolCallId, { timeZone: decision.timeZone });
  if ('error' in decision) return client.submitToolResult(pending.toolCallId, undefined, { error: decision.error });
  if ('answer' in decision) return client.answer(decision.answer);
  return decision.approve ? client.approve(decision.note) : client.reject(decision.note);
}

/**
 * The tool cards each turn of `plan` shows once played (`playSession`), in call order: each with
 * its own arguments and outcome (fields to match, e.g. with `toMatchObject`). A stopped or failed
 * turn shows none.
 */
export function plannedCards(plan: SessionPlan): Record<string, unknown>[][] {
  return plan.turns.map((turn, t) =>
    turn.end !== 'answer' ? [] : turn.steps.flatMap((step, s) => step.calls.map((call, i) => plannedCard(call, plannedQuery(t, s, i)))),
  );
}

function plannedCard(call: PlannedCall, query: string): Record<string, unknown> {
  const { tool, decision } = call;
  if (tool === 'lookup') return { toolName: tool, state: 'done', args: { query }, result: { found: query }, progress: { searching: query } };
  if (tool === 'flaky') return { toolName: tool, state: 'error', args: { query } };
  if (tool === 'time_zone') {
    const approval = { kind: 'client', approved: true };
    return 'timeZone' in decision! ? { toolName: tool, state: 'done', args: { query }, result: { timeZone: decision.timeZone }, approval } : { toolName: tool, state: 'error', args: { query }, approval };
  }
  if (tool === 'ask_question') return { toolName: tool, state: 'done', args: { question: `Which one? ${query}` }, result: (decision as { answer: string }).answer };
  const to = `${query}@example.com`;
  const { approve, note } = decision as { approve: boolean; note?: string };
  const approval = { approved: approve, ...(note !== undefined && { note }) };
  return approve ? { toolName: tool, state: 'done', args: { to }, result: { sent: to }, approval } : { toolName: tool, state: 'rejected', args: { to }, approval };
}

/** The tool cards of each turn of a state (the parts after each user message, up to the next one), to compare with `plannedCards`. */
export function cardsByTurn(state: Pick<AgentUIState, 'messages'>): UIToolPart[][] {
  const turns: UIToolPart[][] = [];
  for (const message of state.messages) {
    if (message.role === 'user') turns.push([]);
    else turns.at(-1)?.push(...message.parts.filter((part): part is UIToolPart => part.type === 'tool'));
  }
  return turns;
}
