import { ERROR_CODES, SDKError, serializeError } from '@lousho/core';
import { consoleLogger, defaultHandler, openSession, type TriggerAdapter, type TriggerAgent, type TriggerHandler, type TriggerOptions } from '../trigger.js';
import { personMessage, SeenEvents, threadOf } from './events.js';
import { headerValue, type SlackHeaders } from './headers.js';
import { checkSlackSignature } from './verify.js';
import { RunSlots, type ConcurrencyOptions } from '@lousho/node';

export interface SlackTriggerOptions extends TriggerOptions, ConcurrencyOptions {
  /** Verifies every request. Set it for any endpoint reachable from outside your machine. */
  signingSecret?: string | undefined;
}

/** A raw Slack Events API request, as `handleRequest()` takes it: the headers and the exact body bytes (the signature covers them). */
export interface SlackRequest {
  headers: SlackHeaders;
  /** The body exactly as received. */
  rawBody: string | Uint8Array;
}

/** What to answer Slack: a status, a JSON body, and headers to send with them (`Retry-After` on a 429). */
export interface SlackResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Runs the agent for Slack Events API messages. Mount `handleRequest` in any server; it verifies
 * the request, answers the `url_verification` handshake, and runs each message a person writes in
 * the session of its thread. It answers after the agent finished: for slow agents, acknowledge
 * first and run in the background (or use `slackChannel()`, which does, and replies in the thread).
 */
export class SlackTriggerAdapter implements TriggerAdapter {
  readonly #options: SlackTriggerOptions;
  readonly #seen = new SeenEvents();
  readonly #slots: RunSlots;
  #target: { agent: TriggerAgent; onEvent: TriggerHandler } | undefined;
  #warned = false;

  constructor(options: SlackTriggerOptions = {}) {
    this.#options = options;
    this.#slots = new RunSlots(options);
  }

  async listen(agent: TriggerAgent, onEvent: TriggerHandler = defaultHandler(agent)): Promise<void> {
    if (this.#target) {
      throw new SDKError(ERROR_CODES.LOUSHO_TRIGGER_STATE, 'This SlackTriggerAdapter is already listening.', { hint: 'Call stop() first, or create another adapter.' });
    }
    if (!this.#options.signingSecret && !this.#warned) {
      this.#warned = true;
      (this.#options.logger ?? consoleLogger).warn(
        'SlackTriggerAdapter: no signingSecret, so requests are not verified: anyone who can reach this endpoint can run your agent. Set signingSecret (SLACK_SIGNING_SECRET).',
      );
    }
    this.#target = { agent, onEvent };
  }

  async stop(): Promise<void> {
    this.#target = undefined;
  }

  /**
   * Answers one Events API request (mount it at your Slack app's Request URL). 401 when the signature
   * or timestamp is wrong, 400 for a body that is not a JSON payload, 503 before `listen()`, 500 when
   * the run failed (Slack retries it); otherwise 200 once the run ended. Never throws. A retried
   * delivery of an event already run is answered 200 without running it again.
   */
  async handleRequest(request: SlackRequest): Promise<SlackResponse> {
    const logger = this.#options.logger ?? consoleLogger;
    const { headers, rawBody } = request;
    if (this.#options.signingSecret) {
      const verdict = checkSlackSignature({
        signingSecret: this.#options.signingSecret,
        timestamp: headerValue(headers, 'x-slack-request-timestamp'),
        signature: headerValue(headers, 'x-slack-signature'),
        rawBody,
      });
      if (!verdict.ok) {
        logger.warn(`SlackTriggerAdapter: refused a request (${verdict.reason})`);
        return { status: 401, body: { error: 'Unauthorized' } };
      }
    }
    let body: Record<string, unknown>;
    try {
      const parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')) as unknown;
      if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return { status: 400, body: { error: { code: 'LOUSHO_INVALID_INPUT', message: 'The body is not a JSON Events API payload.' } } };
    }
    if (body.type === 'url_verification') return { status: 200, body: { challenge: body.challenge } };
    const target = this.#target;
    if (!target) {
      return { status: 503, body: { error: { code: ERROR_CODES.LOUSHO_TRIGGER_STATE, message: 'The Slack trigger is not listening.' } } };
    }
    const event = personMessage(body);
    if (!event) return { status: 200, body: { ok: true, ignored: true } };
    const eventId = typeof body.event_id === 'string' ? body.event_id : undefined;
    // At most maxConcurrentRuns runs at once; Slack retries a 429 later (the event is not marked seen).
    const release = this.#slots.take();
    if (!release) return this.#slots.busy('Slack trigger');
    if (eventId && !this.#seen.add(eventId)) {
      release();
      return { status: 200, body: { ok: true, duplicate: true } };
    }
    try {
      const sessionId = await openSession(target.agent, 'slack', this.#options.owner, `slack:${event.channel}:${threadOf(event)}`);
      await target.onEvent(event.text ?? '', { trigger: 'slack', sessionId, payload: body });
      return { status: 200, body: { ok: true, sessionId } };
    } catch (error) {
      // Slack retries a failed delivery: let the retry run it again.
      if (eventId) this.#seen.forget(eventId);
      logger.error?.('SlackTriggerAdapter: a run failed', { error: serializeError(error).message });
      return { status: 500, body: { error: { code: 'LOUSHO_INTERNAL', message: 'The run failed.' } } };
    } finally {
      release();
    }
  }
}
