import type { ClientAgent } from '@lousho/protocol';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { EventFeed, startRun } from '@lousho/protocol';
import { followSession } from '@lousho/protocol';
import { randomSessionId } from '@lousho/protocol';
import { sessionUIState } from '@lousho/protocol';
import { reduceAgentEvents } from '@lousho/protocol';
import { initialAgentUIState } from '@lousho/protocol';
import { readJsonBody } from './body.js';
import { viewOfRequest, type RequestView } from './request-view.js';
import { echo, HttpError, toHttpError } from './errors.js';
import { approximateEventSize } from './event-size.js';
import { errorResponse, jsonResponse } from './responses.js';
import { matchRoute, normalizeBasePath, type Route } from './routes.js';
import { DEFAULT_WRITE_WINDOW_MS, sseResponse } from './sse-response.js';
import { isValidSessionId, parseDecisionBody, parseMessageBody, parseResumePoint } from './validate.js';
import { parsePageQuery, parseRenameBody, sessionListItem, threadsOf } from './threads.js';

/** What the handler uses of an agent: any `createAgent()` agent, or a flow served with `createFlowAgent()`. */
export type HandlerAgent = ClientAgent;

/** Options of `createAgentHandler()`: where it is mounted, who may use it, and its limits (bytes, ms). */
export interface AgentHandlerOptions {
  /** The path the handler is mounted at (e.g. `/api/agent`); routes match below it. Default `''`. */
  basePath?: string;
  /**
   * Who is asking: return a principal id (a user id, an API key's owner), or null to answer 401.
   * A session belongs to the principal that created it. Default: every request is `anonymous`,
   * so a session id is the only thing that protects a session.
   */
  authorize?: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** Largest request body, in bytes (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** A keep-alive comment after this many ms without events (default 15,000; 0 turns them off). */
  keepAliveMs?: number;
  /**
   * A stream writes at most once per this many ms while its events come faster than that (default
   * 4): an event that finds its stream quiet for this long goes out at once. 0: every burst of
   * events is written as soon as it ends. A write costs the server more than the event in it.
   */
  writeWindowMs?: number;
  /**
   * How far a stream's reader may fall behind its run, in bytes of events waiting for it (default
   * 1 MiB). A connection past it is closed, and the client resumes from its last event (served from
   * the session's log, at its own pace). Resumed and replayed streams read the log as they go, so
   * they never hold more than about 64 KB whatever this says.
   */
  maxBufferedBytes?: number;
  /** Unexpected failures (answered as 500 without details): log them here. */
  onError?: (error: unknown, request: Request) => void;
}

/** The principal of every request when no `authorize` is given. */
export const ANONYMOUS_PRINCIPAL = 'anonymous';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;

/**
 * A Fetch-API handler `(Request) => Promise<Response>` that serves an agent over HTTP: create and
 * read sessions, start turns and decide approvals (both stream events as SSE), stop a turn and
 * resume a stream. Mount it in any Fetch-based server, or in Node with `toNodeHandler()`.
 * See docs/http.md for the routes, statuses and error codes.
 */
export function createAgentHandler(agent: HandlerAgent, options: AgentHandlerOptions = {}): (request: Request) => Promise<Response> {
  const basePath = normalizeBasePath(options.basePath);
  const maxBodyBytes = positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes');
  const maxBufferedBytes = positive(options.maxBufferedBytes, DEFAULT_MAX_BUFFERED_BYTES, 'maxBufferedBytes');
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const writeWindowMs = nonNegative(options.writeWindowMs, DEFAULT_WRITE_WINDOW_MS, 'writeWindowMs');
  // The hooks get a Fetch `Request`; without them, a lighter view of one is all the handler reads.
  const { authorize: authorizeHook, onError } = options;
  const authorize = (request: RequestView): string | null | undefined | Promise<string | null | undefined> =>
    authorizeHook ? authorizeHook(request.request()) : ANONYMOUS_PRINCIPAL;

  const report = (error: unknown, request: RequestView): void => {
    try {
      onError?.(error, request.request());
    } catch {
      // A failing logger (or a request that cannot be made) must not turn into a second failure.
    }
  };

  const notFound = (sessionId: string): HttpError =>
    new HttpError(404, ERROR_CODES.LOUSHO_SESSION_NOT_FOUND, `No session '${echo(sessionId)}'.`);

  /**
   * Loads the session from the agent's store (it may have been created before a restart, or by
   * another server process) and checks that `principal` owns it; another principal's session
   * looks unknown (404).
   */
  const requireOwned = async (sessionId: string, principal: string): Promise<void> => {
    const session = await agent.sessions.load(sessionId);
    if (session?.owner !== principal) throw notFound(sessionId);
  };

  const stream = (feed: EventFeed, request: RequestView): Response =>
    sseResponse(feed, { keepAliveMs, writeWindowMs, signal: request.signal, onFailure: (error) => report(error, request), chunksOnly: request.writesSseChunks });

  async function route(route: Route, request: RequestView, url: URL, principal: string): Promise<Response> {
    switch (route.name) {
      case 'createSession': {
        const sessionId = randomSessionId();
        await agent.sessions.create(sessionId, { owner: principal });
        return jsonResponse(201, { sessionId });
      }

      case 'getSession': {
        const { sessionId } = route;
        await requireOwned(sessionId, principal);
        const view = sessionUIState(reduceAgentEvents, agent.sessions, sessionId);
        if (!view) {
          return jsonResponse(200, { sessionId, status: 'idle', messages: [], pendingApproval: null, lastSeq: 0, state: initialAgentUIState() });
        }
        const { session, state } = view;
        return jsonResponse(200, {
          sessionId,
          status: session.status,
          messages: session.messages,
          pendingApproval: session.pendingApproval,
          lastSeq: session.lastSeq,
          state,
        });
      }

      case 'listSessions': {
        const page = await threadsOf(agent).list({ owner: principal, ...parsePageQuery(url) });
        return jsonResponse(200, { sessions: page.sessions.map(sessionListItem), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) });
      }

      case 'renameSession': {
        const { sessionId } = route;
        const threads = threadsOf(agent);
        // The owner is checked before the body is read: another principal's session is unknown.
        await requireOwned(sessionId, principal);
        const title = parseRenameBody(await readJsonBody(request, maxBodyBytes));
        await threads.rename(sessionId, title, { owner: principal });
        return jsonResponse(200, { sessionId, title: title.trim() });
      }

      case 'deleteSession': {
        const { sessionId } = route;
        await threadsOf(agent).delete(sessionId, { owner: principal });
        return jsonResponse(200, { sessionId, deleted: true });
      }

      case 'sendMessage': {
        const { sessionId } = route;
        // Checked before and after reading the body: the body is not read for a session that is not yours.
        const claim = async (): Promise<boolean> => {
          const session = await agent.sessions.load(sessionId);
          if (session !== undefined) {
            // Another principal's session, or one the agent has without an owner: unknown to this caller.
            if (session.owner !== principal) throw notFound(sessionId);
            return false;
          }
          if (!isValidSessionId(sessionId)) {
            throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'A new session id may use letters, digits and "_ . : -" (at most 128 characters).');
          }
          return true;
        };
        await claim();
        const body = parseMessageBody(await readJsonBody(request, maxBodyBytes));
        // Implicit creation, owned by the caller: the store creates it atomically, so two callers
        // racing for a new id cannot both own it.
        if ((await claim()) && !(await agent.sessions.create(sessionId, { owner: principal }))) await requireOwned(sessionId, principal);
        // Answered once the turn has started: a refusal (busy in another process too) is a 409.
        const run = agent.stream(body.input, { sessionId, ...(body.metadata ? { metadata: body.metadata } : {}) });
        return stream(await startRun(run, new EventFeed({ maxBufferedBytes, sizeOf: approximateEventSize })), request);
      }

      case 'decide': {
        const { sessionId, approvalId } = route;
        await requireOwned(sessionId, principal);
        const decision = parseDecisionBody(await readJsonBody(request, maxBodyBytes));
        const pending = (await agent.approvals.list({ sessionId })).find((approval) => approval.approvalId === approvalId);
        if (!pending) {
          const seen = agent.sessions
            .eventsAfter(sessionId, 0)
            .some((event) => event.type === 'approval.requested' && event.approval.approvalId === approvalId);
          if (seen) throw new HttpError(409, ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING, `Approval '${echo(approvalId)}' was already decided.`);
          throw new HttpError(404, ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND, `No pending approval '${echo(approvalId)}' in session '${echo(sessionId)}'.`);
        }
        if (pending.kind !== decision.kind) {
          throw new HttpError(
            400,
            ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH,
            pending.kind === 'question'
              ? `Approval '${approvalId}' is a question: send { "answer": "..." }.`
              : `Approval '${approvalId}' is a tool call: send { "approved": true | false, "note"?: "..." }.`,
          );
        }
        const run =
          decision.kind === 'question'
            ? await agent.approvals.answerStream({ id: approvalId, answer: decision.answer })
            : await agent.approvals.resolveStream({ id: approvalId, approved: decision.approved, ...(decision.note !== undefined ? { note: decision.note } : {}) });
        return stream(await startRun(run, new EventFeed({ maxBufferedBytes, sizeOf: approximateEventSize })), request);
      }

      case 'stop': {
        await requireOwned(route.sessionId, principal);
        // Reaches the process running the turn when the store links several (PostgreSQL signals).
        return jsonResponse(200, { stopped: await agent.sessions.requestStop(route.sessionId) });
      }

      case 'resume': {
        await requireOwned(route.sessionId, principal);
        // Never forced: a session whose lease is held runs somewhere (409), only an interrupted one resumes.
        return stream(await startRun(await agent.resumeStream(route.sessionId, { force: false }), new EventFeed({ maxBufferedBytes, sizeOf: approximateEventSize })), request);
      }

      case 'events': {
        await requireOwned(route.sessionId, principal);
        const after = parseResumePoint(request, url);
        return stream(followSession(agent.sessions, route.sessionId, after), request);
      }
    }
  }

  async function handle(request: RequestView): Promise<Response> {
    try {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'The request URL cannot be parsed.');
      }
      const principal = await authorize(request);
      if (typeof principal !== 'string' || principal === '') {
        throw new HttpError(401, ERROR_CODES.LOUSHO_UNAUTHORIZED, 'This request is not authorized; sign in or send valid credentials.');
      }
      const match = matchRoute(request.method.toUpperCase(), url.pathname, basePath);
      if ('notFound' in match) throw new HttpError(404, ERROR_CODES.LOUSHO_ROUTE_NOT_FOUND, `No route for ${echo(request.method)} ${echo(url.pathname)}.`);
      if ('allow' in match) {
        throw new HttpError(405, ERROR_CODES.LOUSHO_METHOD_NOT_ALLOWED, `${echo(request.method)} is not allowed here; use ${match.allow}.`, { allow: match.allow });
      }
      return await route(match.route, request, url, principal);
    } catch (error) {
      const { status, body, headers, unexpected } = toHttpError(error);
      if (unexpected) report(error, request);
      return errorResponse(status, body, headers);
    }
  }

  const handleAgentRequest = (request: Request): Promise<Response> => handle(viewOfRequest(request));
  // For a server adapter that reads requests without making a `Request` (see `viewHandlerOf`).
  Object.defineProperty(handleAgentRequest, VIEW_HANDLER, { value: handle });
  return handleAgentRequest;
}

const VIEW_HANDLER = Symbol('lousho.viewHandler');

/**
 * The handler's entry for a `RequestView`, when `handler` is one `createAgentHandler()` made
 * (undefined for any other): the node adapter passes its requests there without making a `Request`.
 */
export function viewHandlerOf(handler: unknown): ((request: RequestView) => Promise<Response>) | undefined {
  return (handler as { [VIEW_HANDLER]?: (request: RequestView) => Promise<Response> } | undefined)?.[VIEW_HANDLER];
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && value > 0)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createAgentHandler: ${name} must be a positive number, got ${String(value)}.`, {
      hint: `Leave ${name} out for the default, or pass a number of bytes such as 1048576.`,
    });
  }
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createAgentHandler: ${name} must be a number of milliseconds, 0 or more, got ${String(value)}.`, {
      hint: `Leave ${name} out for the default, or pass 0 to write every burst of events at once.`,
    });
  }
  return value;
}
