import type { ClientAgent } from '@lousho/protocol';
import type { AgentStreamEvent } from '@lousho/protocol';
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
import { isValidSessionId, parseDecisionBody, parseMessageBody, parseResumePoint, type DecisionBody } from './validate.js';
import { parsePageQuery, parseRenameBody, sessionListItem, threadsOf } from './threads.js';
import { checkOptionKeys, type OptionKeys } from '@lousho/protocol';
import { parseQueueBody } from './queue.js';
import { queueOf } from '@lousho/protocol';
import { checkAttachments, fileResponse, filesOf, storeUpload } from './files.js';
import { attachmentOf, DEFAULT_FILE_TYPES, DEFAULT_MAX_FILE_BYTES } from '@lousho/protocol';

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
  /** Largest uploaded file (`POST /sessions/:id/files`), in bytes (default 10 MiB); larger ones get 413 `LOUSHO_FILE_TOO_LARGE`. */
  maxFileBytes?: number;
  /**
   * The media types an upload may have, `type/subtype` or `type/*` (default: PNG, JPEG, GIF, WebP,
   * PDF, plain text, Markdown, CSV, JSON); others get 415 `LOUSHO_FILE_TYPE_REFUSED`, as does an
   * image or PDF whose bytes do not start with its type's signature.
   */
  fileTypes?: readonly string[];
  /** Unexpected failures (answered as 500 without details): log them here. */
  onError?: (error: unknown, request: Request) => void;
}

/** The principal of every request when no `authorize` is given. */
export const ANONYMOUS_PRINCIPAL = 'anonymous';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;

const HANDLER_OPTION_KEYS: OptionKeys<AgentHandlerOptions> = {
  basePath: true,
  authorize: true,
  maxBodyBytes: true,
  keepAliveMs: true,
  writeWindowMs: true,
  maxBufferedBytes: true,
  maxFileBytes: true,
  fileTypes: true,
  onError: true,
};

/** What each kind of approval is, and the body that decides it. */
const DECISION_BODIES: Record<DecisionBody['kind'], string> = {
  tool: 'a tool call: send { "approved": true | false, "note"?: "..." }',
  question: 'a question: send { "answer": "..." }',
  client: 'a browser tool\'s call: send { "result": ... } or { "error": "..." }',
};

/** Records the decision and streams the run going on from it. */
function decide(agent: HandlerAgent, id: string, decision: DecisionBody): Promise<AsyncIterable<AgentStreamEvent>> {
  const { approvals } = agent;
  if (decision.kind === 'question') return approvals.answerStream({ id, answer: decision.answer });
  if (decision.kind === 'tool') return approvals.resolveStream({ id, approved: decision.approved, ...(decision.note !== undefined ? { note: decision.note } : {}) });
  if (!approvals.submitToolResultStream) throw new HttpError(400, ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH, 'This agent has no browser tools.');
  const { kind: _, ...sent } = decision;
  return approvals.submitToolResultStream({ id, ...sent });
}

/**
 * A Fetch-API handler `(Request) => Promise<Response>` that serves an agent over HTTP: create and
 * read sessions, start turns and decide approvals (both stream events as SSE), stop a turn and
 * resume a stream. Mount it in any Fetch-based server, or in Node with `toNodeHandler()`.
 * See docs/http.md for the routes, statuses and error codes.
 */
export function createAgentHandler(agent: HandlerAgent, options: AgentHandlerOptions = {}): (request: Request) => Promise<Response> {
  checkOptionKeys('createAgentHandler()', options, HANDLER_OPTION_KEYS);
  const basePath = normalizeBasePath(options.basePath);
  const maxBodyBytes = positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes');
  const maxBufferedBytes = positive(options.maxBufferedBytes, DEFAULT_MAX_BUFFERED_BYTES, 'maxBufferedBytes');
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const writeWindowMs = nonNegative(options.writeWindowMs, DEFAULT_WRITE_WINDOW_MS, 'writeWindowMs');
  const fileLimits = { maxFileBytes: positive(options.maxFileBytes, DEFAULT_MAX_FILE_BYTES, 'maxFileBytes'), fileTypes: checkFileTypes(options.fileTypes) };
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

  /**
   * True when `sessionId` is new (and a valid id for one); false when it is the caller's. Another
   * principal's session, or one the agent has without an owner, is unknown to this caller (404).
   */
  const claim = async (sessionId: string, principal: string): Promise<boolean> => {
    const session = await agent.sessions.load(sessionId);
    if (session !== undefined) {
      if (session.owner !== principal) throw notFound(sessionId);
      return false;
    }
    if (!isValidSessionId(sessionId)) {
      throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'A new session id may use letters, digits and "_ . : -" (at most 128 characters).');
    }
    return true;
  };

  /**
   * Implicit creation, owned by the caller: the store creates it atomically, so two callers racing
   * for a new id cannot both own it.
   */
  const createIfNew = async (sessionId: string, principal: string): Promise<void> => {
    if ((await claim(sessionId, principal)) && !(await agent.sessions.create(sessionId, { owner: principal }))) await requireOwned(sessionId, principal);
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
        await claim(sessionId, principal);
        const body = parseMessageBody(await readJsonBody(request, maxBodyBytes));
        const input = await checkAttachments(body.input, agent, sessionId);
        await createIfNew(sessionId, principal);
        // Answered once the turn has started: a refusal (busy in another process too) is a 409.
        const run = agent.stream(input, { sessionId, ...(body.metadata ? { metadata: body.metadata } : {}) });
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
          throw new HttpError(400, ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH, `Approval '${approvalId}' is ${DECISION_BODIES[pending.kind]}.`);
        }
        const run = await decide(agent, approvalId, decision);
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

      case 'queue': {
        const queue = queueOf(agent);
        // Checked before the body is read: another principal's session is unknown.
        await requireOwned(route.sessionId, principal);
        const change = parseQueueBody(await readJsonBody(request, maxBodyBytes));
        if ('remove' in change) {
          await queue.unqueue(route.sessionId, change.remove, { owner: principal });
          return jsonResponse(200, { queueId: change.remove, removed: true });
        }
        const { mode, metadata } = change;
        // A waiting message's attachments are checked now, as a sent message's are.
        const input = await checkAttachments(change.input, agent, route.sessionId);
        const item = await queue.enqueue(route.sessionId, input, { mode, owner: principal, ...(metadata ? { metadata } : {}) });
        return jsonResponse(201, { queueId: item.queueId, mode: item.mode });
      }

      case 'uploadFile': {
        const { sessionId } = route;
        const files = filesOf(agent);
        await claim(sessionId, principal);
        const file = await storeUpload(request, url, sessionId, files, fileLimits);
        try {
          // A new session is created once its first file is stored: a refused upload leaves nothing.
          await createIfNew(sessionId, principal);
        } catch (error) {
          await files.delete(file.id).catch(() => {});
          throw error;
        }
        return jsonResponse(201, { attachment: attachmentOf(file) });
      }

      case 'getFile': {
        const files = filesOf(agent);
        await requireOwned(route.sessionId, principal);
        return fileResponse(files, route.sessionId, route.fileId);
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

function checkFileTypes(types: readonly string[] | undefined): readonly string[] {
  if (types === undefined) return DEFAULT_FILE_TYPES;
  const valid = Array.isArray(types) && types.length > 0 && types.every((type) => typeof type === 'string' && /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/.test(type));
  if (!valid) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createAgentHandler: fileTypes must be a non-empty list of lower-case media types ("image/png" or "image/*"), got ${JSON.stringify(types)}.`, {
      hint: 'Leave fileTypes out for the default list, or pass e.g. ["image/*", "application/pdf"].',
    });
  }
  return [...types];
}
