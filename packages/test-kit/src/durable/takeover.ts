/**
 * A process that dies at a chosen moment, in the test's own process: agent A works through a store
 * view that freezes after its n-th write (every later call of A's, reads too, never answers, as if
 * its process were gone), and agent B, on the same store, takes the session over and finishes the
 * conversation. Used by the takeover tests (memory, SQLite, PostgreSQL) to check that every crash
 * point ends in the UI state, transcript and log of a conversation that was never interrupted.
 */
import { z } from 'zod';
import { createInProcessTransport } from '@lousho/client';
import { createAgent, defineTool, reduceAgentEvents, SDKError, withArtifacts, textOf, type Agent, type AgentStreamEvent, type AgentUIState, type CompleteAgentStore, type GenerateOptions, type LLMProvider, type Message, type StreamChunk } from '@lousho/core';

// ---- the conversation ----

type Item = { text: string } | { reasoning: string } | { call: string; id: string; args: Record<string, unknown> } | { fail: string };

/** What the model does, per user input and per step of that turn. Every reply is a function of the transcript alone. */
const TURNS: Record<string, Item[][]> = {
  'Find the launch date': [
    [{ text: 'Let me look that up.' }, { call: 'lookup', id: 'call_lookup', args: { query: 'launch date' } }],
    [{ reasoning: 'The plan says May.' }, { text: 'It is on May 4.' }],
  ],
  'Email Bob about it': [
    [{ text: 'Drafting the email.' }, { call: 'send_email', id: 'call_email', args: { to: 'bob@example.com', subject: 'Launch' } }],
    [{ text: 'OK, I did not send it.' }],
  ],
  'Ask me something': [[{ call: 'ask_question', id: 'call_question', args: { question: 'Which day?' } }], [{ text: 'Friday it is.' }]],
  'Now fail': [[{ text: 'Trying to' }, { fail: 'The model is down.' }]],
  'Bye': [[{ text: 'Goodbye and good luck.' }]],
};
export const INPUTS = Object.keys(TURNS);

function position(messages: readonly Message[]): { input: string; step: number } {
  let i = messages.length;
  while (i-- > 0 && messages[i]!.role !== 'user');
  const step = messages.slice(i + 1).filter((m) => m.role === 'assistant').length;
  return { input: textOf(messages[i]), step };
}

/** The model: streams each reply word by word, and each call's arguments in pieces. */
export function conversationModel(): LLMProvider {
  return {
    name: 'takeover',
    defaultModel: 'takeover-model',
    async *stream(request: GenerateOptions): AsyncIterable<StreamChunk> {
      const { input, step } = position(request.messages);
      const items = TURNS[input]?.[step];
      if (!items) throw new Error(`No reply for "${input}" step ${step}.`);
      let calls = 0;
      for (const item of items) {
        await Promise.resolve();
        if ('fail' in item) throw new Error(item.fail);
        if ('text' in item || 'reasoning' in item) {
          const type = 'text' in item ? 'text-delta' : 'reasoning-delta';
          for (const word of ('text' in item ? item.text : item.reasoning).split(/(?= )/)) yield { type, text: word };
        } else {
          const index = calls++;
          const json = JSON.stringify(item.args);
          yield { type: 'tool-call-start', index, id: item.id, name: item.call };
          for (let at = 0; at < json.length; at += 9) yield { type: 'tool-call-delta', index, argumentsDelta: json.slice(at, at + 9) };
        }
      }
      yield { type: 'finish', finishReason: calls > 0 ? 'tool_calls' : 'stop', usage: { promptTokens: 10, completionTokens: 5 } };
    },
  };
}

const lookup = defineTool({
  name: 'lookup',
  displayName: 'Look up',
  description: 'Looks something up',
  input: z.object({ query: z.string() }),
  async execute({ query }, ctx) {
    ctx.reportProgress?.({ searching: query });
    return withArtifacts({ date: 'May 4' }, [{ type: 'link', title: 'Launch plan', data: { url: 'https://example.com/plan' } }]);
  },
});

const sendEmail = defineTool({
  name: 'send_email',
  displayName: 'Send email',
  description: 'Sends an email',
  input: z.object({ to: z.string(), subject: z.string() }),
  needsApproval: true,
  async execute({ to }) {
    return { sent: to };
  },
});

export function conversationAgent(store: CompleteAgentStore): Agent {
  return createAgent({ provider: conversationModel(), tools: [lookup, sendEmail], askQuestion: true, store, maxSteps: 10 }) as Agent;
}

// ---- a store view that freezes ----

const WRITES: Record<string, readonly string[]> = {
  sessions: ['create', 'update', 'delete', 'appendEvents', 'compactEvents'],
  checkpoints: ['acquire', 'release', 'save', 'delete'],
  approvals: ['save', 'claim', 'complete', 'release', 'delete'],
};

export interface FreezingStore {
  store: CompleteAgentStore;
  /** Resolves when the store froze (never, without a limit that is reached). */
  frozen: Promise<void>;
  /** The writes made so far. */
  readonly writes: number;
}

/**
 * `store` as seen by a process that dies right before its write number `limit` (0-based): that
 * write and everything after it (reads too) never answer. Every call answers asynchronously, as a
 * networked store would. Without `limit`, it only counts the writes.
 */
export function freezingStore(store: CompleteAgentStore, limit = Infinity): FreezingStore {
  let writes = 0;
  let freeze!: () => void;
  const frozen = new Promise<void>((resolve) => (freeze = resolve));
  let dead = false;
  const never = new Promise<never>(() => {});
  const wrap = <T extends object>(part: T, name: keyof typeof WRITES): T =>
    new Proxy(part, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (dead) return never;
          if (WRITES[name]!.includes(key as string)) {
            if (writes >= limit) {
              dead = true;
              freeze();
              return never;
            }
            writes++;
          }
          return Promise.resolve().then(() => (value as (...a: unknown[]) => unknown).apply(target, args));
        };
      },
    });
  return {
    store: { sessions: wrap(store.sessions, 'sessions'), checkpoints: wrap(store.checkpoints, 'checkpoints'), approvals: wrap(store.approvals, 'approvals') },
    frozen,
    get writes() {
      return writes;
    },
  };
}

// ---- a person working through the conversation, whichever process serves it ----

const codeOf = (error: unknown): string | undefined => (SDKError.is(error) ? error.code : (error as { code?: string } | null)?.code);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the conversation one action further on `agent`, deciding from what the store holds: resume
 * an interrupted run (or one whose approval was decided), decide a pending approval, or send the
 * next input. False when the conversation is complete. A refusal because the dead process's lease
 * still counts is waited out.
 */
export async function nextAction(agent: Agent, store: CompleteAgentStore, id: string): Promise<boolean> {
  for (;;) {
    try {
      await agent.sessions.load(id);
      const checkpoint = await store.checkpoints.load(id);
      const run = checkpoint?.run;
      // Pending, or claimed by the process that died before it recorded the decision.
      const pending = (await store.approvals.list({ sessionId: id })).find((a) => a.status === 'pending' || (a.status === 'resolving' && !a.decision));
      if (run?.state === 'running' || (run?.state === 'paused' && !pending)) {
        await agent.resume(id);
      } else if (pending) {
        if (pending.kind === 'question') await agent.approvals.answer({ id: pending.approvalId, answer: 'Friday' });
        else await agent.approvals.resolve({ id: pending.approvalId, approved: false, note: 'Not yet, thanks.' });
      } else {
        const said = (checkpoint?.messages ?? []).filter((m) => m.role === 'user').map((m) => textOf(m));
        const input = INPUTS[said.length];
        if (input === undefined) return false;
        await agent.send(input, { sessionId: id });
      }
      return true;
    } catch (error) {
      // The scripted failure ends its turn (sent, or resumed after a crash).
      if (String((error as Error)?.message).includes('The model is down')) return true;
      const code = codeOf(error);
      if (code === 'LOUSHO_SESSION_BUSY' || code === 'LOUSHO_APPROVAL_NOT_PENDING' || code === 'LOUSHO_SESSION_AWAITING_APPROVAL') {
        await sleep(store.checkpoints.leaseMs);
        continue;
      }
      if (code === 'LOUSHO_SESSION_NOT_RESUMABLE') return true;
      throw error;
    }
  }
}

/** Runs the whole conversation on `agent`; with `until`, stops (leaving the agent where it is) once that settles. */
export async function converse(agent: Agent, store: CompleteAgentStore, id: string, until?: Promise<void>): Promise<'done' | 'frozen'> {
  const stop = until?.then(() => 'frozen' as const);
  for (;;) {
    const next = nextAction(agent, store, id).then((more) => (more ? ('more' as const) : ('done' as const)));
    const outcome = await (stop ? Promise.race([next, stop]) : next);
    if (outcome !== 'more') return outcome;
  }
}

// ---- comparing ----

/** What a UI shows, without the ids that differ between two runs of the same conversation. */
export function shown(state: AgentUIState): unknown {
  return JSON.parse(JSON.stringify(state), (key, value: unknown) => (key === 'runId' || key === 'lastSeq' || key === 'approvalId' ? undefined : value));
}

/** A client's state from the events it received, in order (a replayed duplicate changes nothing). */
export function reduceAll(events: readonly AgentStreamEvent[], from?: AgentUIState): AgentUIState {
  let state = from;
  for (const event of events) state = reduceAgentEvents(state, event);
  return state ?? reduceAgentEvents(undefined, { type: 'unknown' } as never);
}

/**
 * The session's UI state as `GET /sessions/:id` returns it (after reading the store): the view a
 * reload builds, through the in-process transport (the same reading of the store and the log).
 */
export async function readBack(agent: Agent, id: string): Promise<AgentUIState> {
  const loaded = await createInProcessTransport(agent).load(id, new AbortController().signal);
  return JSON.parse(JSON.stringify(loaded!.state)) as AgentUIState;
}
