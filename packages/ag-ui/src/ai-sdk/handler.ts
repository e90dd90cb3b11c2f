import { ERROR_CODES, SDKError, type AgentStreamEvent, type SessionState } from '@lousho/core';
import { readJsonBody } from '../body.js';
import { AgUiRequestError, errorResponse, invalidInput } from '../errors.js';
import type { AgUiAgent } from '../handler.js';
import { checkAgUiOptions, type AgUiHandlerOptions } from '../options.js';
import { ownedSession, unknownThread } from '../sessions.js';
import { historyOf, isToolPart, parseChatRequest, userContent, type ChatRequest } from './input.js';
import { AiSdkMapper, type UiChunk } from './mapper.js';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_MESSAGES = 1000;
const encoder = new TextEncoder();

/**
 * Serves `agent` to the AI SDK's `useChat` (`ai` 5 and later, `DefaultChatTransport`): a Fetch
 * handler that takes its request (`{ id, messages, trigger }`) and answers with the UI message
 * stream. The chat id is a Lousho session; a tool approval answered with `addToolApprovalResponse()`
 * and a question answered with `addToolOutput()` go on with the paused run. See docs/ag-ui.md.
 */
export function createAiSdkHandler(agent: AgUiAgent, options: AgUiHandlerOptions = {}): (request: Request) => Promise<Response> {
  checkAgUiOptions('createAiSdkHandler()', options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxMessages = options.maxMessages ?? DEFAULT_MAX_MESSAGES;
  const report = (error: unknown, request: Request) => options.onError?.(error, request);
  return async (request) => {
    try {
      if (request.method !== 'POST') throw new AgUiRequestError(405, ERROR_CODES.LOUSHO_METHOD_NOT_ALLOWED, 'A useChat endpoint takes POST.', { allow: 'POST' });
      const principal = options.authorize ? await options.authorize(request) : 'anonymous';
      if (!principal) throw new AgUiRequestError(401, ERROR_CODES.LOUSHO_UNAUTHORIZED, 'This request has no valid credentials.');
      const chat = parseChatRequest(await readJsonBody(request, maxBodyBytes), { maxMessages });
      const session = await ownedSession(agent, chat.chatId, principal);
      const controller = new AbortController();
      request.signal?.addEventListener('abort', () => controller.abort(), { once: true });
      const started = await startChatRun(agent, chat, session, principal, controller.signal);
      const mapper = new AiSdkMapper({ prefix: `${chat.chatId}:${crypto.randomUUID()}`, ...(started.messageId && { messageId: started.messageId }) });
      return uiStreamResponse(chunks(mapper, started.first, started.iterator, (error) => report(error, request)), controller);
    } catch (error) {
      return errorResponse(error, (unexpected) => report(unexpected, request));
    }
  };
}

interface StartedChatRun {
  first: IteratorResult<AgentStreamEvent>;
  iterator: AsyncIterator<AgentStreamEvent>;
  /** Set for a new turn (a new assistant message); a resume goes on with the client's last one. */
  messageId?: string;
}

/** A new turn (the last message is the user's), or the paused run going on (the last is the assistant's, with the decision in it). */
async function startChatRun(agent: AgUiAgent, chat: ChatRequest, session: SessionState | undefined, principal: string, signal: AbortSignal): Promise<StartedChatRun> {
  if (chat.trigger === 'regenerate-message') throw invalidInput('regenerate is not supported: the server keeps the transcript; send a new message instead.');
  const last = chat.messages.at(-1)!;
  let run: AsyncIterable<AgentStreamEvent>;
  let messageId: string | undefined;
  if (last.role === 'user') {
    const input = session ? userContent(last, `messages[${chat.messages.length - 1}]`) : historyOf(chat.messages);
    if (!session && !(await agent.sessions.create(chat.chatId, { owner: principal })) && (await agent.sessions.load(chat.chatId))?.owner !== principal) throw unknownThread();
    messageId = `msg-${crypto.randomUUID()}`;
    run = agent.stream(input, { sessionId: chat.chatId, signal });
  } else {
    const pending = session?.pendingApproval;
    if (!pending) throw invalidInput('Nothing to run: the last message is not a user message and no call waits for a decision.');
    const part = last.parts.find((candidate) => isToolPart(candidate) && candidate.toolCallId === pending.toolCallId);
    if (pending.kind === 'tool' && part?.state === 'approval-responded' && part.approval?.id === pending.approvalId && typeof part.approval.approved === 'boolean') {
      run = await agent.approvals.resolveStream({ id: pending.approvalId, approved: part.approval.approved, ...(part.approval.reason && { note: part.approval.reason }) }, { signal });
    } else if (pending.kind === 'question' && part?.state === 'output-available') {
      const answer = typeof part.output === 'string' ? part.output : JSON.stringify(part.output ?? '');
      if (answer.trim() === '') throw invalidInput('The answer to the question is empty.');
      run = await agent.approvals.answerStream({ id: pending.approvalId, answer }, { signal });
    } else if (pending.kind === 'client' && agent.approvals.submitToolResultStream && (part?.state === 'output-available' || part?.state === 'output-error')) {
      const sent = part.state === 'output-available' ? { result: part.output } : { error: typeof part.errorText === 'string' && part.errorText.trim() !== '' ? part.errorText.slice(0, 2000) : 'The tool failed in the browser.' };
      run = await agent.approvals.submitToolResultStream({ id: pending.approvalId, toolCallId: pending.toolCallId, ...sent }, { signal });
    } else {
      throw new SDKError(ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL, pending.kind !== 'tool' ? 'The chat waits for an answer or a browser tool\'s result: give it with addToolOutput() on that call.' : 'The chat waits for a decision: give it with addToolApprovalResponse().');
    }
  }
  const iterator = run[Symbol.asyncIterator]();
  const first = await iterator.next();
  return { first, iterator, ...(messageId && { messageId }) };
}

async function* chunks(mapper: AiSdkMapper, first: IteratorResult<AgentStreamEvent>, iterator: AsyncIterator<AgentStreamEvent>, report: (error: unknown) => void): AsyncGenerator<UiChunk> {
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

/** The UI message stream: one `data:` line of JSON per chunk, `[DONE]` at the end. */
function uiStreamResponse(source: AsyncGenerator<UiChunk>, controller: AbortController): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      const next = await source.next();
      if (next.done) {
        stream.enqueue(encoder.encode('data: [DONE]\n\n'));
        stream.close();
      } else stream.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      controller.abort();
      await source.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1', 'x-accel-buffering': 'no' },
  });
}
