// lousho-api-overview.md › "Tool errors" and lousho-tools.md › "Errors": every failed call reaches
// the model as one JSON shape, { error, toolName, message, kind }, and the run goes on.
// Run: npx tsx tool-errors.ts (offline: a scripted model makes three calls that fail).
import { createAgent, defineTool } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const sendEmail = defineTool({
  name: 'sendEmail',
  description: 'Send an email',
  input: z.object({ to: z.string(), count: z.number() }),
  execute: async () => 'sent',
});
const search = defineTool({
  name: 'search',
  description: 'Search the docs',
  input: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    if (!query) throw new TypeError('query must not be empty');
    return [`result for ${query}`];
  },
});

const agent = createAgent({
  instructions: 'You help.',
  provider: mockModel([
    {
      toolCalls: [
        { name: 'sendEmail', args: { count: 'two' } }, // arguments that do not match: execute never runs
        { name: 'search', args: { query: '' } }, // execute throws
        { name: 'translate', args: { text: 'hi' } }, // no such tool
      ],
    },
    'Sorry, none of that worked.',
  ]),
  tools: [sendEmail, search],
});

const result = await agent.send('Do three things');
// What the model received for each call, as it is in the transcript.
for (const message of result.messages.filter((m) => m.role === 'tool')) console.log(message.content);
console.log(`the run went on: ${result.finishReason}: ${result.text}`);
