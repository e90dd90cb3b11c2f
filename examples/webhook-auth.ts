// lousho-api-overview.md › "Webhook authentication": a webhook that runs the agent only for signed requests.
// Run: npx tsx webhook-auth.ts (offline: the built-in mock provider; the server listens on 127.0.0.1 only).
import { createHmac } from 'node:crypto';
import { createAgent, createMockProvider } from '@lousho/build-ai-agent';
import { WebhookTriggerAdapter } from '@lousho/build-ai-agent/triggers';

process.env.WEBHOOK_SECRET ??= 'example-secret'; // set it for real in your environment
const agent = createAgent({ prompt: 'You are helpful.', provider: createMockProvider() });

// HMAC of the RAW request body (GitHub / Shopify style): header `x-signature-256: sha256=<hex>`.
// The snippet listens on port 8787 of every interface; this example takes any free loopback port.
const webhook = new WebhookTriggerAdapter({
  port: 0,
  host: '127.0.0.1',
  auth: { type: 'hmac', secret: process.env.WEBHOOK_SECRET ?? '' },
});
await webhook.listen(agent, (input) => agent.send(input));
const url = `http://127.0.0.1:${webhook.address!.port}/`;

// What GitHub would send: the body, signed with the shared secret.
const body = JSON.stringify({ input: 'A new issue was opened' });
const signature = `sha256=${createHmac('sha256', process.env.WEBHOOK_SECRET).update(body).digest('hex')}`;
const signed = await fetch(url, { method: 'POST', body, headers: { 'x-signature-256': signature } });
console.log(`signed: ${signed.status} ${JSON.stringify(((await signed.json()) as { text: string }).text)}`);

const forged = await fetch(url, { method: 'POST', body, headers: { 'x-signature-256': 'sha256=00' } });
console.log(`forged: ${forged.status} ${await forged.text()}`);

const tampered = await fetch(url, { method: 'POST', body: body.replace('new', 'old'), headers: { 'x-signature-256': signature } });
console.log(`tampered body: ${tampered.status}`);
await webhook.stop();

// The other auth types of the snippet: replay protection, a bearer token, your own check.
new WebhookTriggerAdapter({
  auth: { type: 'hmac', secret: process.env.WEBHOOK_SECRET ?? '', header: 'x-signature', timestampHeader: 'x-timestamp', toleranceSeconds: 120 },
});
new WebhookTriggerAdapter({ auth: { type: 'bearer', token: process.env.WEBHOOK_TOKEN ?? 'example-token' } });
new WebhookTriggerAdapter({ auth: { type: 'custom', verify: (req) => req.headers['x-api-key'] === process.env.API_KEY } });
console.log('other auth types: configured');
