// lousho-api-overview.md › "Slack request signatures": verify every Slack request before running the agent.
// Run: npx tsx slack-signatures.ts (offline: the built-in mock provider; the server listens on 127.0.0.1 only).
import { createHmac } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgent, createMockProvider } from '@lousho/build-ai-agent';
import { SlackTriggerAdapter, verifySlackSignature } from '@lousho/build-ai-agent/triggers';

process.env.SLACK_SIGNING_SECRET ??= 'example-signing-secret'; // set it for real in your environment
const agent = createAgent({ prompt: 'You are helpful.', provider: createMockProvider() });
const slack = new SlackTriggerAdapter({ signingSecret: process.env.SLACK_SIGNING_SECRET });
slack.listen(agent, (input) => agent.send(input));

// The snippet listens on port 3000; this example takes any free loopback port.
const server = http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const { status, body, headers } = await slack.handleRequest({ headers: req.headers, rawBody: Buffer.concat(chunks) });
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    });
  })
  .listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

// What Slack sends when you set the endpoint up: a signed url_verification handshake.
const rawBody = JSON.stringify({ type: 'url_verification', challenge: 'c-123' });
const timestamp = String(Math.floor(Date.now() / 1000));
const signature = `v0=${createHmac('sha256', process.env.SLACK_SIGNING_SECRET).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
const handshake = await fetch(url, { method: 'POST', body: rawBody, headers: { 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature } });
console.log(`signed handshake: ${handshake.status} ${await handshake.text()}`);
const unsigned = await fetch(url, { method: 'POST', body: rawBody });
console.log(`unsigned: ${unsigned.status} ${await unsigned.text()}`);
const stale = String(Math.floor(Date.now() / 1000) - 600);
const staleSignature = `v0=${createHmac('sha256', process.env.SLACK_SIGNING_SECRET).update(`v0:${stale}:${rawBody}`).digest('hex')}`;
const replayed = await fetch(url, { method: 'POST', body: rawBody, headers: { 'x-slack-request-timestamp': stale, 'x-slack-signature': staleSignature } });
console.log(`ten minutes old: ${replayed.status}`);
server.close();

// Your own handler (slash commands, interactivity)? Verify the RAW body yourself:
const authentic = verifySlackSignature({
  signingSecret: process.env.SLACK_SIGNING_SECRET ?? '',
  timestamp, // the X-Slack-Request-Timestamp header
  signature, // the X-Slack-Signature header
  rawBody,
});
const placeholder = verifySlackSignature({ signingSecret: process.env.SLACK_SIGNING_SECRET ?? '', timestamp, signature: 'v0=...', rawBody });
console.log(`verifySlackSignature: real ${authentic}, placeholder ${placeholder}`);
