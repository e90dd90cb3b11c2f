import { defineTool } from '@lousho/core';
import { z } from 'zod';
import { IntegrationError, requireOption, RestClient, type FetchLike, type RetryPolicy } from './rest.js';

/** Options of `createSlackTool()`: the bot token and defaults. Posting needs approval unless you turn it off. */
export interface SlackToolOptions {
  /** A bot token (`xoxb-…`) with the `chat:write` scope. */
  token: string;
  /** The channel used when the model names none (an id like `C0123456789`, or `#name`). */
  defaultChannel?: string;
  /** Ask a person before each post (default true: posting is visible to others). */
  needsApproval?: boolean;
  /** The Web API root (default `https://slack.com/api`). */
  baseUrl?: string;
  fetch?: FetchLike;
  retry?: RetryPolicy;
}

/**
 * `slack_post_message`: posts a message to a Slack channel or thread through the Web API's
 * `chat.postMessage`. Needs approval by default. Slack reports failures as `{ ok: false, error }`
 * with HTTP 200; those become tool errors naming Slack's error code.
 */
export function createSlackTool(options: SlackToolOptions) {
  const token = requireOption('Slack', 'createSlackTool', 'token', options?.token);
  const client = new RestClient({
    service: 'Slack',
    baseUrl: options.baseUrl ?? 'https://slack.com/api',
    headers: { authorization: `Bearer ${token}` },
    secrets: [token],
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    errorText: (body) => (isSlackReply(body) ? body.error : undefined),
  });
  return defineTool({
    name: 'slack_post_message',
    displayName: 'Post to Slack',
    description: `Post a message to a Slack channel${options.defaultChannel ? ` (default ${options.defaultChannel})` : ''}, or reply in a thread with threadTs.`,
    input: z.object({
      channel: z.string().min(1).optional().describe('Channel id or #name; the default channel when left out'),
      text: z.string().min(1).max(40_000).describe('The message (Slack mrkdwn)'),
      threadTs: z.string().optional().describe("The parent message's ts, to reply in its thread"),
    }),
    needsApproval: options.needsApproval ?? true,
    async execute({ channel, text, threadTs }, ctx) {
      const target = channel ?? options.defaultChannel;
      if (!target) throw new IntegrationError('LOUSHO_INTEGRATION_ERROR', 'Slack', 'No channel given and the tool has no defaultChannel.', { hint: 'Name the channel.' });
      const { body } = await client.request<SlackReply>('POST', 'chat.postMessage', { body: { channel: target, text, ...(threadTs ? { thread_ts: threadTs } : {}) }, signal: ctx.abortSignal });
      if (!isSlackReply(body) || !body.ok) {
        const code = isSlackReply(body) ? body.error : 'invalid_response';
        throw new IntegrationError('LOUSHO_INTEGRATION_ERROR', 'Slack', `Slack refused the post: ${code}.`, { hint: slackHint(code) });
      }
      return { channel: body.channel ?? target, ts: body.ts, ...(threadTs ? { threadTs } : {}) };
    },
  });
}

interface SlackReply {
  ok: boolean;
  error?: string;
  channel?: string;
  ts?: string;
}

function isSlackReply(body: unknown): body is SlackReply {
  return typeof body === 'object' && body !== null && typeof (body as SlackReply).ok === 'boolean';
}

function slackHint(code: string | undefined): string {
  switch (code) {
    case 'channel_not_found':
    case 'not_in_channel':
      return 'Invite the bot to the channel, or use the channel id.';
    case 'invalid_auth':
    case 'not_authed':
    case 'token_revoked':
      return 'Check the bot token.';
    case 'missing_scope':
      return 'Give the app the chat:write scope and reinstall it.';
    default:
      return 'See Slack\'s chat.postMessage errors for this code.';
  }
}
