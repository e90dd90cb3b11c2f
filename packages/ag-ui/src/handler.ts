import { EventEncoder } from '@ag-ui/encoder';
import type { BaseEvent } from '@ag-ui/core';
import { ERROR_CODES, SDKError, type AgentInput, type AgentStreamEvent, type HandlerAgent, type Message, type SessionState } from '@lousho/core';
import { readJsonBody } from './body.js';
import { AgUiRequestError, errorResponse } from './errors.js';
import { parseRunInput, type RunRequest } from './input.js';
import { decisionOf, type Decision } from './interrupts.js';
import { AgUiMapper } from './mapper.js';
import { checkAgUiOptions, type AgUiHandlerOptions } from './options.js';
import { ownedSession, unknownThread } from './sessions.js';
import { fromAgUiMessages, toAgUiMessages } from './transcript.js';

/** What the handler uses of an agent: any `createAgent()` agent, or a flow served with `createFlowAgent()`. */
export type AgUiAgent = Pick<HandlerAgent, 'stream' | 'approvals' | 'sessions'>;

/** The principal of every request when no `authorize` is given (as `createAgentHandler()`'s). */
const ANONYMOUS = 'anonymous';
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_MESSAGES = 1000;

/**
 * Serves `agent` as an AG-UI endpoint: a Fetch handler (`(request) => Promise<Response>`) that
 * takes AG-UI's `RunAgentInput` (POST, JSON) and answers with AG-UI events, as server-sent events,
 * or protobuf when the request's `Accept` asks for AG-UI's protobuf media type. A thread is a
 * Lousho session; an approval or a question ends the run with an interrupt that a later run
 * answers in `resume[]`. See docs/ag-ui.md.
 */
export function createAgUiHandler(agent: AgUiAgent, options: AgUiHandlerOptions = {}): (request: Request) => Promise<Response> {
  checkAgUiOptions('createAgUiHandler()', options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxMessages = options.maxMessages ?? DEFAULT_MAX_MESSAGES;
  const report = (error: unknown, request: Request) => options.onError?.(error, request);
  return async (request) => {
    try {
      if (request.method !== 'POST') throw new AgUiRequestError(405, ERROR_CODES.LOUSHO_METHOD_NOT_ALLOWED, 'An AG-UI endpoint takes POST.', { allow: 'POST' });
      const principal = options.authorize ? await options.authorize(request) : ANONYMOUS;
      if (!principal) throw new AgUiRequestError(401, ERROR_CODES.LOUSHO_UNAUTHORIZED, 'This request has no valid credentials.');
      const input = parseRunInput(await readJsonBody(request, maxBodyBytes), { maxMessages });
      const session = await ownedSession(agent, input.threadId, principal);
      const encoder = new EventEncoder({ accept: request.headers.get('accept') ?? undefined });
      const controller = new AbortController();
      request.signal?.addEventListener('abort', () => controller.abort(), { once: true });
      const started = await startRun(agent, input, session, principal, controller.signal);
      if (!started) {
        const mapper = new AgUiMapper({ threadId: input.threadId, runId: input.runId, snapshot: snapshotOf(session, input) });
        return streamResponse(encoder, eventsOf(mapper.idle(session?.pendingApproval)), controller);
      }
      const transcript = () => toAgUiMessages(agent.sessions.get(input.threadId)?.messages ?? [], input.threadId);
      const mapper = new AgUiMapper({ threadId: input.threadId, runId: input.runId, transcript, ...(started.snapshot && { snapshot: started.snapshot }) });
      return streamResponse(encoder, mapped(mapper, started.first, started.iterator, (error) => report(error, request)), controller);
    } catch (error) {
      return errorResponse(error, (unexpected) => report(unexpected, request));
    }
  };
}

interface StartedRun {
  first: IteratorResult<AgentStreamEvent>;
  iterator: AsyncIterator<AgentStreamEvent>;
  snapshot?: ReturnType<typeof toAgUiMessages>;
}

/**
 * Starts what the request asks: the continuation of the interrupt `resume[]` answers, or a turn
 * with the messages after the client's last non-user one. Undefined when there is nothing to run.
 * The run's first event is awaited here, so a refusal (busy, awaiting approval) is an HTTP error.
 */
async function startRun(agent: AgUiAgent, input: RunRequest, session: SessionState | undefined, principal: string, signal: AbortSignal): Promise<StartedRun | undefined> {
  let run: AsyncIterable<AgentStreamEvent>;
  let snapshot: StartedRun['snapshot'];
  if (input.resume.length > 0) {
    const pending = session?.pendingApproval;
    if (!pending) throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING, 'This thread has no open interrupt to resume.');
    const entry = input.resume.find((candidate) => candidate.interruptId === pending.approvalId);
    const stray = input.resume.find((candidate) => candidate.interruptId !== pending.approvalId);
    if (!entry || stray) throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND, `resume[] must answer this thread's open interrupt (${pending.approvalId}) and nothing else.`);
    const decision = decisionOf(entry, pending);
    run = await continueWith(agent, decision, signal);
  } else {
    const split = newMessagesOf(input);
    if (split.fresh.length === 0) return undefined;
    const known = session !== undefined;
    // A thread the server has not seen takes the client's history with the new messages.
    const turn = inputOf(fromAgUiMessages(known ? split.fresh : input.messages));
    // Created owned by the caller; the store creates atomically, so of two callers racing for a new id one owns it.
    if (!session && !(await agent.sessions.create(input.threadId, { owner: principal })) && (await agent.sessions.load(input.threadId))?.owner !== principal) throw unknownThread();
    // A client that sent no history for a thread the server has (a reload) gets the server's.
    if (known && split.history === 0 && session.messages.length > 0) snapshot = [...toAgUiMessages(session.messages, input.threadId), ...split.fresh];
    run = agent.stream(turn, { sessionId: input.threadId, signal, metadata: { agUi: { context: input.context, forwardedProps: input.forwardedProps ?? null } } });
  }
  const iterator = run[Symbol.asyncIterator]();
  const first = await iterator.next();
  return { first, iterator, ...(snapshot && { snapshot }) };
}

/** The paused run going on from the resume entry's decision. */
async function continueWith(agent: AgUiAgent, decision: Decision, signal: AbortSignal): Promise<AsyncIterable<AgentStreamEvent>> {
  if ('answer' in decision) return agent.approvals.answerStream(decision, { signal });
  if ('approved' in decision) return agent.approvals.resolveStream(decision, { signal });
  if (!agent.approvals.submitToolResultStream) throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH, 'This agent has no browser tools.');
  return agent.approvals.submitToolResultStream(decision, { signal });
}

/** A turn of one user message goes as its content (a flow agent reads a string input), else as messages. */
function inputOf(messages: Message[]): AgentInput {
  const only = messages.length === 1 ? messages[0]! : undefined;
  return only?.role === 'user' ? only.content : messages;
}

/**
 * The new turn: the client's last message when it is a user's (else none), and how many came before
 * it. Only the last one: a user message before it that has no reply is one the server already has
 * (its run failed) or refused (a guardrail blocked it), never one to send again.
 */
function newMessagesOf(input: RunRequest): { fresh: RunRequest['messages']; history: number } {
  const last = input.messages.at(-1);
  if (last?.role !== 'user') return { fresh: [], history: input.messages.length };
  return { fresh: [last], history: input.messages.length - 1 };
}

function snapshotOf(session: SessionState | undefined, input: RunRequest): ReturnType<typeof toAgUiMessages> | undefined {
  if (!session || session.messages.length === 0 || input.messages.length > 0) return undefined;
  return toAgUiMessages(session.messages, input.threadId);
}

async function* eventsOf(events: BaseEvent[]): AsyncGenerator<BaseEvent> {
  yield* events;
}

async function* mapped(mapper: AgUiMapper, first: IteratorResult<AgentStreamEvent>, iterator: AsyncIterator<AgentStreamEvent>, report: (error: unknown) => void): AsyncGenerator<BaseEvent> {
  try {
    let next = first;
    while (!next.done) {
      yield* mapper.map(next.value);
      if (mapper.done) break;
      next = await iterator.next();
    }
    if (!mapper.done) yield* mapper.fail('The run ended without finishing.', ERROR_CODES.LOUSHO_INTERNAL);
  } catch (error) {
    const known = SDKError.is(error);
    if (!known) report(error);
    yield* mapper.fail(known ? error.message : 'The run failed; the server logged why.', known ? error.code : ERROR_CODES.LOUSHO_INTERNAL);
  } finally {
    await iterator.return?.();
  }
}

function streamResponse(encoder: EventEncoder, events: AsyncGenerator<BaseEvent>, controller: AbortController): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      const next = await events.next();
      if (next.done) stream.close();
      else stream.enqueue(encoder.encodeBinary(next.value));
    },
    async cancel() {
      controller.abort();
      await events.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': encoder.getContentType(), 'cache-control': 'no-store', 'x-accel-buffering': 'no' } });
}
