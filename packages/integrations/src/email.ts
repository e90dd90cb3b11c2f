import { defineTool, SDKError } from '@lousho/core';
import { z } from 'zod';
import { IntegrationError } from './rest.js';

/** Options of `createEmailTool()`: the SMTP server and the defaults of each message. Sending needs approval unless you turn it off. */
export interface EmailToolOptions {
  /** The SMTP server (nodemailer's SMTP options: `host`, `port`, `secure`, `auth`, `requireTLS`, ...). */
  smtp: { host: string; port?: number; secure?: boolean; requireTLS?: boolean; auth?: { user: string; pass: string }; [option: string]: unknown };
  /** The sender, e.g. `"Support" <support@acme.com>`. */
  from: string;
  /** When set, only addresses at these domains may receive mail (checked before approval and sending). */
  allowedDomains?: readonly string[];
  /** Ask a person before each email (default true). */
  needsApproval?: boolean;
}

const address = z.string().email();
const recipients = z.union([address, z.array(address).min(1).max(50)]);

/**
 * `send_email`: sends a plain-text (optionally HTML) email over SMTP with nodemailer (an optional peer
 * dependency, loaded on the first send, so the package root stays importable in a browser). Needs
 * approval by default; `allowedDomains` refuses other recipients before anyone is asked.
 */
export function createEmailTool(options: EmailToolOptions) {
  if (!options?.smtp || typeof options.smtp.host !== 'string' || !options.smtp.host) {
    throw new SDKError('LOUSHO_INVALID_CONFIG', 'createEmailTool: the SMTP host is missing.', { hint: "Pass { smtp: { host: 'smtp.example.com', port: 587, auth: { user, pass } }, from }." });
  }
  if (typeof options.from !== 'string' || !options.from.includes('@')) {
    throw new SDKError('LOUSHO_INVALID_CONFIG', 'createEmailTool: `from` must be an email address.', { hint: 'e.g. from: \'"Support" <support@acme.com>\'' });
  }
  const allowed = options.allowedDomains?.map((d) => d.toLowerCase());
  let transport: Promise<MailTransport> | undefined;

  return defineTool({
    name: 'send_email',
    displayName: 'Send email',
    description: `Send an email${allowed ? ` (only to ${allowed.join(', ')} addresses)` : ''}.`,
    input: z
      .object({
        to: recipients,
        cc: recipients.optional(),
        bcc: recipients.optional(),
        subject: z.string().min(1).max(998),
        text: z.string().min(1).max(200_000),
        html: z.string().max(500_000).optional(),
        replyTo: address.optional(),
      })
      .superRefine((mail, ctx) => {
        if (!allowed) return;
        for (const field of ['to', 'cc', 'bcc'] as const) {
          for (const to of list(mail[field])) {
            if (!allowed.includes(to.split('@').pop()!.toLowerCase())) ctx.addIssue({ code: 'custom', path: [field], message: `${to} is outside the allowed domains (${allowed.join(', ')})` });
          }
        }
      }),
    needsApproval: options.needsApproval ?? true,
    async execute(mail) {
      transport ??= openTransport(options.smtp);
      let info: SentInfo;
      try {
        info = await (await transport).sendMail({ from: options.from, ...mail });
      } catch (error) {
        transport = undefined;
        throw new IntegrationError('LOUSHO_INTEGRATION_ERROR', 'SMTP', `The mail server refused the message: ${smtpReason(error, options.smtp.auth?.pass)}`, {
          hint: 'Check the SMTP settings and the recipients.',
          cause: error,
        });
      }
      return { messageId: info.messageId, accepted: info.accepted.map(String), rejected: info.rejected.map(String) };
    },
  });
}

function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

interface SentInfo {
  messageId: string;
  accepted: unknown[];
  rejected: unknown[];
}

interface MailTransport {
  sendMail(mail: Record<string, unknown>): Promise<SentInfo>;
}

/** Loads nodemailer on first use; a variable specifier keeps browser bundlers from pulling it in. */
async function openTransport(smtp: EmailToolOptions['smtp']): Promise<MailTransport> {
  const specifier = 'nodemailer';
  let nodemailer: { createTransport(options: unknown): MailTransport; default?: { createTransport(options: unknown): MailTransport } };
  try {
    nodemailer = await import(/* @vite-ignore */ specifier);
  } catch (error) {
    throw new IntegrationError('LOUSHO_INTEGRATION_ERROR', 'SMTP', 'createEmailTool needs the nodemailer package, which is not installed.', { hint: 'npm install nodemailer', cause: error });
  }
  return (nodemailer.default ?? nodemailer).createTransport(smtp);
}

function smtpReason(error: unknown, password: string | undefined): string {
  const e = error as { response?: unknown; message?: unknown; code?: unknown };
  const text = typeof e?.response === 'string' ? e.response : typeof e?.message === 'string' ? e.message : String(error);
  const clean = password ? text.split(password).join('[redacted]') : text;
  return `${clean.slice(0, 300)}${typeof e?.code === 'string' ? ` (${e.code})` : ''}`;
}
