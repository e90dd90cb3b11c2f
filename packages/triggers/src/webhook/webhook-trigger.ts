import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODES, SDKError, serializeError, type AgentInput, type ReplayStore } from '@lousho/core';
import { RunSlots, webhookChannel, webhookInput, type ConcurrencyOptions, type WebhookAuth, type WebhookChannel } from '@lousho/node';
import { invalidConfig } from '../errors.js';
import { isLoopbackHost } from '../node/loopback.js';
import { BodyTooLargeError, readRawBody } from '../node/read-body.js';
import { sendError, sendJson } from '../node/responses.js';
import { TriggerServer } from '../node/server.js';
import {
  consoleLogger,
  defaultHandler,
  isExecutionResult,
  openSession,
  type TriggerAdapter,
  type TriggerAgent,
  type TriggerHandler,
  type TriggerOptions,
} from '../trigger.js';

export interface WebhookTriggerOptions extends TriggerOptions, ConcurrencyOptions {
  /** Default 8787; 0 picks a free port (read it from `address`). */
  port?: number;
  /** Default `'0.0.0.0'` (every interface). Without `auth`, a non-loopback host logs a one-time warning. */
  host?: string;
  /** Only this path is served (others get 404). Default: any path. */
  path?: string;
  /** How callers prove who they are. Always set it for a webhook reachable from outside the machine. */
  auth?: WebhookAuth<Buffer>;
  /** Largest body, in bytes (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** The session a payload continues (e.g. one per GitHub issue). Default: a new session per request. */
  sessionId?: (payload: unknown) => string | undefined;
  /** What the agent is sent. Default: the payload's `input` field if it is text, else the payload as JSON text. */
  input?: (payload: unknown) => AgentInput;
  /**
   * `'after-run'` (default): answer when `onEvent` has finished, with the run's outcome.
   * `'accepted'`: answer `202 { sessionId }` at once and run in the background.
   */
  respond?: 'after-run' | 'accepted';
  /** Signed requests remembered in memory for replay protection (with `timestampHeader`). Default 10,000. */
  replayCacheSize?: number;
  /**
   * Where accepted signatures are remembered instead of this process's memory: `store.replays` of a
   * `SqliteStore` or `PostgresStore` (survives restarts, shared by every process on the store).
   */
  replayStore?: ReplayStore;
}

const DEFAULT_PORT = 8787;
const DEFAULT_HOST = '0.0.0.0';
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const SESSION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * An HTTP endpoint that runs the agent for each authenticated JSON POST. Authentication is
 * `webhookChannel()`'s: HMAC of the raw body (with an optional signed timestamp and replay
 * protection), a bearer token, or your own `verify`; every refusal is the same generic 401.
 */
export class WebhookTriggerAdapter implements TriggerAdapter {
  readonly #options: WebhookTriggerOptions;
  readonly #channel: WebhookChannel<Buffer> | undefined;
  readonly #server = new TriggerServer();
  readonly #running = new Set<Promise<unknown>>();
  readonly #slots: RunSlots;
  #warnedOpen = false;

  constructor(options: WebhookTriggerOptions = {}) {
    const { port, maxBodyBytes, respond } = options;
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
      throw invalidConfig(`port must be an integer from 0 to 65535, got ${String(port)}.`, 'Use e.g. 8787, or 0 for any free port.');
    }
    if (maxBodyBytes !== undefined && !(typeof maxBodyBytes === 'number' && maxBodyBytes > 0)) {
      throw invalidConfig(`maxBodyBytes must be a positive number, got ${String(maxBodyBytes)}.`, 'Leave it out for 1 MiB.');
    }
    if (respond !== undefined && respond !== 'after-run' && respond !== 'accepted') {
      throw invalidConfig(`respond must be 'after-run' or 'accepted', got ${JSON.stringify(respond)}.`, "Use 'accepted' for senders that expect a quick answer.");
    }
    this.#options = options;
    this.#slots = new RunSlots(options);
    const logger = options.logger ?? consoleLogger;
    this.#channel =
      options.auth === undefined
        ? undefined
        : webhookChannel<Buffer>({
            auth: options.auth,
            name: 'webhook',
            logger: { warn: (message, details) => logger.warn(message.replace(/^webhook:/, 'WebhookTriggerAdapter:'), details) },
            ...(options.replayCacheSize !== undefined ? { replayCacheSize: options.replayCacheSize } : {}),
            ...(options.replayStore !== undefined ? { replayStore: options.replayStore } : {}),
          });
  }

  /** Where the server listens, once `listen()` has resolved. */
  get address(): { port: number; host: string } | undefined {
    return this.#server.address;
  }

  async listen(agent: TriggerAgent, onEvent: TriggerHandler = defaultHandler(agent)): Promise<void> {
    if (this.#server.address) {
      throw new SDKError(ERROR_CODES.LOUSHO_TRIGGER_STATE, 'This WebhookTriggerAdapter is already listening.', { hint: 'Call stop() first, or create another adapter.' });
    }
    const host = this.#options.host ?? DEFAULT_HOST;
    const logger = this.#options.logger ?? consoleLogger;
    if (!this.#channel && !isLoopbackHost(host) && !this.#warnedOpen) {
      this.#warnedOpen = true;
      logger.warn(
        `WebhookTriggerAdapter: listening on ${host} without auth: anyone who can reach this port can run your agent. Set auth ({ type: 'hmac' | 'bearer' | 'custom' }) or listen on 127.0.0.1.`,
      );
    }
    await this.#server.start(this.#options.port ?? DEFAULT_PORT, host, (req, res) => this.#handle(req, res, agent, onEvent), (error) =>
      logger.error?.('WebhookTriggerAdapter: a request failed', { error: error instanceof Error ? error.message : String(error) }),
    );
  }

  /** Closes the port; requests and background runs in progress finish first. */
  async stop(): Promise<void> {
    await this.#server.close();
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  async #handle(req: IncomingMessage, res: ServerResponse, agent: TriggerAgent, onEvent: TriggerHandler): Promise<void> {
    const { path } = this.#options;
    const url = new URL(req.url ?? '/', 'http://webhook.invalid');
    if (path !== undefined && url.pathname !== path) {
      sendError(res, 404, 'LOUSHO_ROUTE_NOT_FOUND', `No webhook at ${url.pathname}.`);
      req.resume();
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, 405, 'LOUSHO_METHOD_NOT_ALLOWED', `${req.method ?? ''} is not allowed here; use POST.`, { allow: 'POST' });
      req.resume();
      return;
    }
    let rawBody: Buffer;
    try {
      rawBody = await readRawBody(req, this.#options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        sendError(res, 413, 'LOUSHO_BODY_TOO_LARGE', error.message, { connection: 'close' });
        return;
      }
      throw error;
    }
    if (this.#channel) {
      const verdict = await this.#channel.authenticate({ method: req.method, url: req.url ?? '/', headers: req.headers, rawBody });
      if (!verdict.ok) {
        sendJson(res, 401, { error: 'Unauthorized' });
        return;
      }
    }
    let payload: unknown;
    try {
      payload = JSON.parse(rawBody.toString('utf8'));
    } catch {
      sendError(res, 400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'The body is not valid JSON.');
      return;
    }
    const chosen = this.#options.sessionId?.(payload);
    if (chosen !== undefined && !SESSION_ID.test(chosen)) {
      sendError(res, 400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'The session id made from this payload is not usable (letters, digits and "_ . : -", at most 128 characters).');
      return;
    }
    // A burst of authenticated requests starts at most maxConcurrentRuns runs; the rest are told when to come back.
    const release = this.#slots.take();
    if (!release) {
      const busy = this.#slots.busy('webhook trigger');
      sendJson(res, busy.status, busy.body, busy.headers);
      return;
    }
    let sessionId: string;
    try {
      sessionId = await openSession(agent, 'webhook', this.#options.owner, chosen);
    } catch (error) {
      release();
      throw error;
    }
    const input = (this.#options.input ?? webhookInput)(payload);
    const work = Promise.resolve().then(() => onEvent(input, { trigger: 'webhook', sessionId, payload }));
    this.#running.add(work);
    void work.then(
      () => (this.#running.delete(work), release()),
      () => (this.#running.delete(work), release()),
    );
    if (this.#options.respond === 'accepted') {
      work.catch((error: unknown) => (this.#options.logger ?? consoleLogger).error?.('WebhookTriggerAdapter: a run failed', { sessionId, error: serializeError(error).message }));
      sendJson(res, 202, { accepted: true, sessionId });
      return;
    }
    try {
      const result = await work;
      sendJson(
        res,
        200,
        isExecutionResult(result)
          ? { sessionId, finishReason: result.finishReason, text: result.text, ...(result.pendingApproval ? { pendingApproval: result.pendingApproval } : {}) }
          : { sessionId },
      );
    } catch (error) {
      const { code, message } = serializeError(error);
      const status = code === ERROR_CODES.LOUSHO_SESSION_BUSY || code === ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL ? 409 : 500;
      if (status === 500) (this.#options.logger ?? consoleLogger).error?.('WebhookTriggerAdapter: a run failed', { sessionId, error: message });
      sendError(res, status, status === 500 ? ERROR_CODES.LOUSHO_INTERNAL : code, status === 500 ? 'The run failed; see the server log.' : message);
    }
  }
}
