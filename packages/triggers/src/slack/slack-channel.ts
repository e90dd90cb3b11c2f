import { type PendingApprovalInfo } from '@lousho/core';
import { defineChannel, type Channel, type ChannelOutbound } from '@lousho/node';
import { invalidConfig } from '../errors.js';
import { consoleLogger, type TriggerLogger } from '../trigger.js';
import { personMessage, SeenEvents, threadOf } from './events.js';
import { checkSlackSignature } from './verify.js';
import { SlackWebApi } from './web-api.js';

/** Options of `slackChannel()`: the signing secret that verifies requests and the bot token that posts replies. */
export interface SlackChannelOptions {
  /** Verifies every request (required: the endpoint is public). */
  signingSecret: string;
  /** The bot token (`xoxb-...`) replies are posted with; needs `chat:write`. */
  botToken: string;
  /** Default `'slack'`: sessions are `slack:<channel>:<thread ts>`. */
  name?: string;
  /** Default `/<name>`. Point both Event Subscriptions and Interactivity at it. */
  path?: string;
  /** Default `https://slack.com/api`. */
  apiUrl?: string;
  /** The `fetch` that calls Slack's Web API (the global one by default); pass your own to add a proxy or to test. */
  fetch?: typeof fetch;
  logger?: TriggerLogger;
}

/** Where in Slack an outbound goes. */
interface SlackPlace {
  channel: string;
  threadTs: string;
  /** For a decision: the approval message whose buttons are replaced by the decision. */
  decidedMessageTs?: string;
  decision?: string;
}

export const APPROVE_ACTION = 'lousho_approve';
export const REJECT_ACTION = 'lousho_reject';

const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
const decoder = new TextDecoder();

/**
 * Slack as a channel: each thread is a session (a top-level message starts one), the agent's reply
 * is posted in the thread, a tool call waiting for approval is posted with Approve / Reject buttons,
 * and a question is posted for the person to answer in the thread. Requests are acknowledged at
 * once (Slack wants an answer within three seconds); the run and the reply follow.
 */
export function slackChannel(options: SlackChannelOptions): Channel {
  if (!options?.signingSecret) throw invalidConfig('slackChannel() needs signingSecret.', 'Use the Signing Secret from your app\'s Basic Information page (SLACK_SIGNING_SECRET).');
  if (!options.botToken) throw invalidConfig('slackChannel() needs botToken.', 'Use the Bot User OAuth Token (xoxb-...) with the chat:write scope.');
  const api = new SlackWebApi({ token: options.botToken, ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}), ...(options.fetch ? { fetch: options.fetch } : {}) });
  const logger = options.logger ?? consoleLogger;
  const seen = new SeenEvents();

  return defineChannel({
    name: options.name ?? 'slack',
    ...(options.path !== undefined ? { path: options.path } : {}),
    receive(req) {
      if (req.request.method.toUpperCase() !== 'POST') return { respond: json(405, { error: { code: 'LOUSHO_METHOD_NOT_ALLOWED', message: 'Slack sends POST requests.' } }) };
      const verdict = checkSlackSignature({
        signingSecret: options.signingSecret,
        timestamp: req.headers['x-slack-request-timestamp'],
        signature: req.headers['x-slack-signature'],
        rawBody: req.rawBody,
      });
      if (!verdict.ok) {
        logger.warn(`slackChannel: refused a request (${verdict.reason})`);
        return { respond: json(401, { error: 'Unauthorized' }) };
      }
      const text = decoder.decode(req.rawBody);
      const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(form ? (new URLSearchParams(text).get('payload') ?? '') : text) as Record<string, unknown>;
        if (typeof body !== 'object' || body === null) throw new Error('not an object');
      } catch {
        return { respond: json(400, { error: { code: 'LOUSHO_INVALID_INPUT', message: 'The body is not a Slack payload.' } }) };
      }
      const ack = new Response(null, { status: 200 });
      if (body.type === 'url_verification') return { respond: json(200, { challenge: body.challenge }) };
      if (body.type === 'block_actions') {
        const decision = decisionOf(body);
        return decision ? { inbound: decision, respond: ack } : { respond: ack };
      }
      const event = personMessage(body);
      if (!event) return { respond: ack };
      if (typeof body.event_id === 'string' && !seen.add(body.event_id)) return { respond: ack };
      const place: SlackPlace = { channel: event.channel, threadTs: threadOf(event) };
      return {
        inbound: { type: 'message', conversationId: `${place.channel}:${place.threadTs}`, input: event.text ?? '', metadata: { slackUser: event.user }, context: place },
        respond: ack,
      };
    },
    async deliver(outbound) {
      const place = outbound.context as SlackPlace;
      if (place.decidedMessageTs && place.decision) {
        await api.call('chat.update', { channel: place.channel, ts: place.decidedMessageTs, text: place.decision, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: place.decision } }] });
      }
      await api.call('chat.postMessage', { channel: place.channel, thread_ts: place.threadTs, ...messageFor(outbound) });
    },
  });
}

/** An Approve / Reject click, as a decision inbound. */
function decisionOf(body: Record<string, unknown>) {
  const action = (body.actions as { action_id?: string; value?: string }[] | undefined)?.[0];
  if (!action || (action.action_id !== APPROVE_ACTION && action.action_id !== REJECT_ACTION) || typeof action.value !== 'string') return undefined;
  const channel = (body.channel as { id?: string } | undefined)?.id;
  const message = body.message as { ts?: string; thread_ts?: string } | undefined;
  const user = (body.user as { id?: string } | undefined)?.id;
  if (!channel || !message?.ts) return undefined;
  const threadTs = message.thread_ts ?? message.ts;
  const approved = action.action_id === APPROVE_ACTION;
  const who = user ? ` by <@${user}>` : '';
  const place: SlackPlace = { channel, threadTs, decidedMessageTs: message.ts, decision: approved ? `:white_check_mark: Approved${who}.` : `:no_entry: Rejected${who}.` };
  return { type: 'decision' as const, conversationId: `${channel}:${threadTs}`, approvalId: action.value, approved, ...(approved ? {} : { note: `Rejected in Slack${who}.` }), context: place };
}

function messageFor(outbound: ChannelOutbound): Record<string, unknown> {
  switch (outbound.type) {
    case 'reply':
      return { text: outbound.text || '(no reply)' };
    case 'error':
      return { text: `:warning: ${outbound.error.message} (${outbound.error.code})` };
    case 'approval':
      return outbound.approval.kind === 'question' ? questionMessage(outbound.approval) : approvalMessage(outbound.approval);
  }
}

function questionMessage(approval: PendingApprovalInfo): Record<string, unknown> {
  const text = `:question: ${approval.question ?? 'The agent has a question.'}\nReply in this thread to answer.`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

function approvalMessage(approval: PendingApprovalInfo): Record<string, unknown> {
  const args = JSON.stringify(approval.args, null, 2);
  const text = `Approval needed: ${approval.displayName}`;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*Approval needed:* \`${approval.displayName}\`\n\`\`\`${args.length > 2500 ? `${args.slice(0, 2500)}…` : args}\`\`\`` } },
      {
        type: 'actions',
        block_id: `lousho_approval_${approval.approvalId}`.slice(0, 255),
        elements: [
          { type: 'button', action_id: APPROVE_ACTION, style: 'primary', text: { type: 'plain_text', text: 'Approve' }, value: approval.approvalId },
          { type: 'button', action_id: REJECT_ACTION, style: 'danger', text: { type: 'plain_text', text: 'Reject' }, value: approval.approvalId },
        ],
      },
    ],
  };
}
