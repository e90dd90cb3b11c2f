import { ERROR_CODES, SDKError, serializeError, ANONYMOUS_PRINCIPAL, inputToMessages, textOf, type Agent, type ExecutionResult, type AgentInput } from '@lousho/core';
import { normalizeBasePath } from '@lousho/core/adapter';
import { concatBytes } from './constant-time.js';
import { RunSlots, type BusyAnswer } from './run-slots.js';
import { conversationSessionId } from './session-ids.js';
import type { Channel, ChannelInbound, ChannelOutbound, ChannelRequest } from './types.js';

/** What channels use of an agent (any `createAgent()` agent). */
export type ChannelAgent = Pick<Agent<any>, 'send' | 'approvals' | 'sessions'>;

/** Options of `mountChannels()`: where they are mounted, who owns their sessions, body limit and error reporting. */
export interface MountChannelsOptions {
  /** Where the channels are mounted; each one answers below it at its own `path`. Default `''`. */
  basePath?: string;
  /**
   * The principal that owns the sessions channels create, so the HTTP handler shows them to that
   * principal. A function gets the inbound and the channel. Default `'anonymous'`.
   */
  owner?: string | ((inbound: ChannelInbound, channel: Channel) => string);
  /** Largest request body, in bytes (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /**
   * Most runs in progress at once, over all the channels mounted (default 16, as the webhook and
   * Slack triggers). A request that comes when they are all taken is answered `429 Too Many
   * Requests` with `Retry-After` and code LOUSHO_TRIGGER_BUSY before its channel reads it, and
   * nothing runs (a Slack event is not marked seen: Slack's retry runs it). A run holds its place
   * until its reply is delivered; messages queued behind another in their conversation hold theirs.
   */
  maxConcurrentRuns?: number;
  /** The `Retry-After` of that answer, in seconds (default 5). */
  retryAfterSeconds?: number;
  /** Unexpected failures: a throwing `receive`, a failed `deliver`. */
  onError?: (error: unknown, context: { channel: string }) => void;
}

/** Lets a runtime keep background work alive after the response (Cloudflare's `ctx.waitUntil`). */
export interface ChannelsRequestContext {
  /** Keeps `promise` (a run started by an acknowledged request) alive after the response is sent. */
  waitUntil?(promise: Promise<unknown>): void;
}

/** The Fetch handler `mountChannels()` returns: answers each channel's requests below its path. */
export interface ChannelsHandler {
  /** Answers one request to any mounted channel (404 for a path none of them has). */
  (request: Request, context?: ChannelsRequestContext): Promise<Response>;
  /** Resolves when every acknowledged inbound has been run and delivered (graceful shutdown, tests). */
  idle(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Serves channels as one Fetch-API handler. Each conversation maps to a session
 * (`<channel>:<conversation>`), its messages run one after another, and what the agent answers,
 * asks or wants approved goes back to the same conversation; decisions and answers come back the
 * same way. A message that arrives while the session waits on a question is its answer.
 */
export function mountChannels(agent: ChannelAgent, channels: readonly Channel[], options: MountChannelsOptions = {}): ChannelsHandler {
  const basePath = normalizeBasePath(options.basePath);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(maxBodyBytes > 0)) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `mountChannels: maxBodyBytes must be positive, got ${String(options.maxBodyBytes)}.`, { hint: 'Leave it out for 1 MiB.' });
  const slots = new RunSlots(options, 'mountChannels');
  const seen = new Set<string>();
  for (const channel of channels) {
    if (typeof channel?.receive !== 'function' || typeof channel.path !== 'string') {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'mountChannels() takes channels made by defineChannel(), httpChannel(), webhookChannel() or slackChannel().', { hint: 'Wrap your definition in defineChannel().' });
    }
    if (seen.has(channel.path)) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Two channels are mounted at '${channel.path || '/'}'.`, { hint: 'Give one of them another `path`.' });
    seen.add(channel.path);
  }
  // Longest paths first, so '/slack/events' wins over '/slack'.
  const routes = [...channels].sort((a, b) => b.path.length - a.path.length);
  const queues = new Map<string, Promise<unknown>>();
  const background = new Set<Promise<unknown>>();

  const report = (error: unknown, channel: Channel): void => {
    try {
      options.onError?.(error, { channel: channel.name });
    } catch {
      // A failing logger must not become a second failure.
    }
  };

  const ownerOf = (inbound: ChannelInbound, channel: Channel): string => {
    const owner = typeof options.owner === 'function' ? options.owner(inbound, channel) : options.owner;
    return owner ?? ANONYMOUS_PRINCIPAL;
  };

  /** Runs one inbound in its conversation's session, after the ones before it. */
  const process = async (channel: Channel, inbound: ChannelInbound): Promise<ChannelOutbound> => {
    const sessionId = await conversationSessionId(channel.name, inbound.conversationId);
    const base = { conversationId: inbound.conversationId, sessionId, ...(inbound.context !== undefined ? { context: inbound.context } : {}) };
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const turn = previous.then(async (): Promise<ChannelOutbound> => {
      try {
        return outcomeOf(base, await run(channel, inbound, sessionId));
      } catch (error) {
        if (error instanceof Redeliver) return { ...base, type: 'approval', approval: error.approval };
        return { ...base, type: 'error', error: serializeError(error) };
      }
    });
    const settled = turn.catch(() => {});
    queues.set(sessionId, settled);
    void settled.then(() => {
      if (queues.get(sessionId) === settled) queues.delete(sessionId);
    });
    return turn;
  };

  const run = async (channel: Channel, inbound: ChannelInbound, sessionId: string): Promise<ExecutionResult> => {
    const state = (await agent.sessions.load(sessionId)) ?? (await agent.sessions.create(sessionId, { owner: ownerOf(inbound, channel) }), undefined);
    const metadata = { channel: channel.name, conversationId: inbound.conversationId };
    if (inbound.type === 'message') {
      const pending = state?.status === 'awaiting-approval' ? state.pendingApproval : null;
      if (pending?.kind === 'question') return agent.approvals.answer({ id: pending.approvalId, answer: inputText(inbound.input) });
      // A tool call waits for a decision: ask again rather than refuse the person.
      if (pending) throw new Redeliver(pending);
      return agent.send(inbound.input, { sessionId, metadata: { ...inbound.metadata, ...metadata } });
    }
    // A decision only counts for an approval of this conversation's session.
    const pending = await agent.approvals.list({ sessionId });
    if (!pending.some((approval) => approval.approvalId === inbound.approvalId)) {
      throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND, 'That approval is not pending in this conversation (it may have been decided already).', {
        hint: 'Decide the approval shown last in the conversation.',
      });
    }
    if (inbound.type === 'answer') return agent.approvals.answer({ id: inbound.approvalId, answer: inbound.answer });
    return agent.approvals.resolve({ id: inbound.approvalId, approved: inbound.approved, ...(inbound.note ? { note: inbound.note } : {}) });
  };

  const deliver = async (channel: Channel, outbound: ChannelOutbound): Promise<void> => {
    try {
      await channel.deliver!(outbound);
    } catch (error) {
      report(error, channel);
    }
  };

  const handler = async (request: Request, context: ChannelsRequestContext = {}): Promise<Response> => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return errorJson(400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'The request URL cannot be parsed.');
    }
    const pathname = url.pathname.replace(/\/+$/, '');
    const channel = routes.find((candidate) => pathname === basePath + candidate.path);
    if (!channel) return errorJson(404, ERROR_CODES.LOUSHO_ROUTE_NOT_FOUND, `No channel at ${url.pathname}.`);
    let rawBody: Uint8Array;
    try {
      rawBody = await readBody(request, maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) return errorJson(413, ERROR_CODES.LOUSHO_BODY_TOO_LARGE, `The body is larger than the limit of ${maxBodyBytes} bytes.`);
      throw error;
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const channelRequest: ChannelRequest = { request, url, rawBody, headers };
    // The place is taken before the channel reads the request: a refused request leaves nothing
    // behind (no replay id or Slack event marked seen), and nothing starts past the bound.
    const release = slots.take();
    if (!release) return busyResponse(slots.busy(`${channel.name} channel`));
    let releaseLater = false;
    try {
      const receipt = await channel.receive(channelRequest);
      if (!receipt.inbound) return receipt.respond;
      if ('reply' in receipt) return await receipt.reply(await process(channel, receipt.inbound));
      if (!channel.deliver) {
        throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Channel '${channel.name}' acknowledged a request but has no deliver() for the reply.`, {
          hint: 'Add deliver(outbound), or return { inbound, reply } to answer in the response.',
        });
      }
      const work = process(channel, receipt.inbound).then((outbound) => deliver(channel, outbound));
      releaseLater = true;
      background.add(work);
      void work.finally(() => (background.delete(work), release()));
      context.waitUntil?.(work);
      return receipt.respond;
    } catch (error) {
      report(error, channel);
      return errorJson(500, ERROR_CODES.LOUSHO_INTERNAL, 'The channel failed to handle the request.');
    } finally {
      if (!releaseLater) release();
    }
  };

  return Object.assign(handler, {
    async idle(): Promise<void> {
      while (background.size > 0) await Promise.allSettled([...background]);
    },
  });
}

/** The approval a message ran into, sent again instead of an error. */
class Redeliver extends Error {
  constructor(readonly approval: NonNullable<ExecutionResult['pendingApproval']>) {
    super('awaiting approval');
  }
}

function outcomeOf(base: { conversationId: string; sessionId: string; context?: unknown }, result: ExecutionResult): ChannelOutbound {
  if (result.finishReason === 'awaiting-approval' && result.pendingApproval) return { ...base, type: 'approval', approval: result.pendingApproval };
  return { ...base, type: 'reply', text: result.text, result };
}

/** The text of an input (a question's answer is text). */
function inputText(input: AgentInput): string {
  return inputToMessages(input)
    .map((message) => textOf(message))
    .join('\n')
    .trim();
}

export function errorJson(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** A full {@link RunSlots}' 429 answer as a Response, with `Retry-After`. */
function busyResponse(busy: BusyAnswer): Response {
  const response = errorJson(busy.status, busy.body.error.code, busy.body.error.message);
  for (const [name, value] of Object.entries(busy.headers)) response.headers.set(name, value);
  return response;
}

class BodyTooLarge extends Error {}

async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    throw new BodyTooLarge();
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}
