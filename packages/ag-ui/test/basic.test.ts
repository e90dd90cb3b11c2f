import { afterEach, describe, expect, it } from 'vitest';
import { emailTool, scriptedAgent } from '@lousho/conformance';
import { serveAgUi, type AgUiServer } from './support/server.js';
import { agUiClient, lastAssistantText, run } from './support/client.js';

let server: AgUiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('smoke', () => {
  it('text and an approval', async () => {
    const email = emailTool();
    const { agent } = scriptedAgent([['Sending', { tool: 'send_email', id: 'c1', args: { to: 'a@b.c', subject: 'Hi' } }], ['Sent.']], { tools: [email.tool] });
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    const first = await run(client, 'Send it');
    console.log(first.types, first.error);
    expect(first.outcome).toBe('interrupt');
    const second = await run(client, undefined, [{ interruptId: first.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]);
    console.log(second.types, second.error, JSON.stringify(client.messages, null, 1));
    expect(lastAssistantText(client)).toBe('Sent.');
  });
});
