import { defineTool } from '@lousho/build-ai-agent';
import { z } from 'zod';
import { hashText } from '../text.js';
import { DEMO_TOOL_NAMES } from './names.js';
import { pause } from '../pause.js';

/** An email the demo "sent": it only lands in the agent's outbox. */
export interface DemoEmail {
  messageId: string;
  to: string;
  subject: string;
  body: string;
}

/** What `send_email` returns to the model. */
export interface DemoEmailReceipt {
  messageId: string;
  to: string;
  subject: string;
}

/** How long "sending" takes at delay scale 1, in ms. */
export const EMAIL_SEND_MS = 300;

export function createEmailTool(options: { delayScale?: number; outbox?: DemoEmail[] } = {}) {
  const delayMs = EMAIL_SEND_MS * (options.delayScale ?? 1);
  const outbox = options.outbox ?? [];
  return defineTool({
    name: DEMO_TOOL_NAMES.email,
    displayName: 'Send email',
    description:
      'Send an email. Always waits for the user to approve it first. In the demo nothing leaves the machine: the email goes to an in-memory outbox.',
    input: z.object({
      to: z.email('to must be an email address, e.g. "sam@example.com"').describe('The recipient address.'),
      subject: z.string().trim().min(1, 'subject must not be empty').max(200).describe('The subject line.'),
      body: z.string().max(5000).describe('The text of the email.'),
    }),
    needsApproval: true,
    async execute({ to, subject, body }, ctx): Promise<DemoEmailReceipt> {
      await pause(delayMs, ctx.abortSignal);
      // Deterministic ids: the n-th email of an outbox, plus a short hash of what it says.
      const sequence = String(outbox.length + 1).padStart(4, '0');
      const messageId = `msg_${sequence}_${hashText(`${to}\n${subject}\n${body}`).toString(36)}`;
      outbox.push({ messageId, to, subject, body });
      return { messageId, to, subject };
    },
  });
}
