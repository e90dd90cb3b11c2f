// lousho-api-overview.md › "Tools": defineTool() with a needsApproval predicate typed from `input`.
// Run: npx tsx define-tool-approval.ts (offline: a scripted model sends two emails).
import { createAgent, defineTool } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const sendEmail = defineTool({
  name: 'send_email', // 1-64 chars: letters, digits, _ and -
  description: 'Send an email',
  input: z.object({ to: z.string().email(), subject: z.string() }),
  needsApproval: ({ to }) => !to.endsWith('@mycompany.com'), // `to` is typed
  async execute({ to, subject }) {
    return { messageId: `${to}:${subject}` };
  },
});

const agent = createAgent({
  instructions: 'You send emails for the user.',
  provider: mockModel([
    { toolCalls: [{ name: 'send_email', args: { to: 'team@mycompany.com', subject: 'Standup' } }] },
    { toolCalls: [{ name: 'send_email', args: { to: 'client@example.org', subject: 'Invoice' } }] },
    'Both emails are sent.',
  ]),
  tools: [sendEmail],
});

// An internal address needs no approval; an outside one pauses the run.
const paused = await agent.send('Email the team, then the client');
console.log(`internal: ${JSON.stringify(paused.toolCalls[0]?.result)}`);
console.log(`outside: ${paused.finishReason}, waiting on ${JSON.stringify(paused.pendingApproval?.args)}`);

// A reviewer lists what is waiting and approves it; the run continues where it paused.
const pending = await agent.approvals.list();
console.log(`pending: ${pending.map((call) => call.toolName).join(', ')}`);
const done = await agent.approvals.resolve({ id: pending[0]!.approvalId, approved: true });
console.log(`approved: ${JSON.stringify(done.toolCalls.at(-1)?.result)}, ${done.finishReason}: ${done.text}`);

// Invalid input is refused when the tool is defined, with a message that says how to fix it.
try {
  defineTool({ name: 'send email', description: 'Send an email', input: z.object({}), execute: async () => null });
} catch (error) {
  console.log(`bad name: ${(error as { code?: string }).code}`);
}
