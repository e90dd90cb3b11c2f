import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmailTool } from '../src/index.js';
import { ctx } from './fake-api.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
  user: string | undefined;
}

let server: SMTPServer | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A real SMTP server on loopback (smtp-server), with login auth, recording every message as sent. */
async function startSmtp(options: { rejectRcpt?: string } = {}) {
  const received: Received[] = [];
  server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === 'mailer' && auth.password === 'hunter2-smtp') return done(null, { user: auth.username });
      return done(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, done) {
      if (options.rejectRcpt && address.address === options.rejectRcpt) return done(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      done();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: session.user as string | undefined,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, received };
}

const smtp = (port: number, pass = 'hunter2-smtp') => ({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, auth: { user: 'mailer', pass } });

describe('createEmailTool', () => {
  it('sends over SMTP with auth: envelope, headers and body as written; needs approval by default', async () => {
    const { port, received } = await startSmtp();
    const tool = createEmailTool({ smtp: smtp(port), from: '"Acme Support" <support@acme.com>' });
    expect(tool.name).toBe('send_email');
    expect(tool.needsApproval).toBe(true);
    const result = await tool.execute({ to: ['ada@example.com'], cc: 'bob@example.com', subject: 'Your refund', text: 'Hello Ada,\nyour refund is on its way.' }, ctx());
    expect(result).toMatchObject({ messageId: expect.stringMatching(/^<.+@.+>$/), accepted: ['ada@example.com', 'bob@example.com'], rejected: [] });
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail).toMatchObject({ from: 'support@acme.com', to: ['ada@example.com', 'bob@example.com'], user: 'mailer' });
    expect(mail.raw).toMatch(/^From: "?Acme Support"? <support@acme\.com>\r$/m);
    expect(mail.raw).toMatch(/^To: ada@example\.com\r$/m);
    expect(mail.raw).toMatch(/^Cc: bob@example\.com\r$/m);
    expect(mail.raw).toMatch(/^Subject: Your refund\r$/m);
    expect(mail.raw).toContain('Hello Ada,\r\nyour refund is on its way.');
  });

  it('refuses recipients outside allowedDomains before anyone is asked or anything is sent', async () => {
    const { port, received } = await startSmtp();
    const tool = createEmailTool({ smtp: smtp(port), from: 'support@acme.com', allowedDomains: ['acme.com'] });
    const parsed = await tool.inputSchema['~standard'].validate({ to: ['ok@acme.com', 'evil@attacker.io'], subject: 's', text: 't' });
    expect('issues' in parsed && parsed.issues?.[0]?.message).toContain('evil@attacker.io is outside the allowed domains (acme.com)');
    expect(received).toHaveLength(0);
  });

  it('a refused recipient or bad credentials are tool errors naming the server reply, never the password', async () => {
    const { port } = await startSmtp({ rejectRcpt: 'gone@example.com' });
    const tool = createEmailTool({ smtp: smtp(port), from: 'support@acme.com' });
    await expect(tool.execute({ to: 'gone@example.com', subject: 's', text: 't' }, ctx())).rejects.toMatchObject({ code: 'LOUSHO_INTEGRATION_ERROR', message: expect.stringContaining('550') });
    const wrong = createEmailTool({ smtp: smtp(port, 'wrong-password-xyz'), from: 'support@acme.com' });
    const error = await Promise.resolve(wrong.execute({ to: 'a@example.com', subject: 's', text: 't' }, ctx())).catch((e: any) => e);
    expect(error).toMatchObject({ code: 'LOUSHO_INTEGRATION_ERROR', message: expect.stringContaining('EAUTH') });
    expect(error.message).not.toContain('wrong-password-xyz');
  });

  it('checks its options when created', () => {
    expect(() => createEmailTool({ smtp: { host: '' }, from: 'a@b.c' })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => createEmailTool({ smtp: { host: 'x' }, from: 'nobody' })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });
});
