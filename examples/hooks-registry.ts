// lousho-api-overview.md › "Flows, evals, observability and security": a HookRegistry of pre/post hooks.
// Run: npx tsx hooks-registry.ts (offline: a scripted model calls a tool with an email address in it).
import { HookRegistry, type AgentHook } from '@lousho/build-ai-agent/hooks';
import { createAgent, defineTool } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const redactPii: AgentHook = {
  name: 'redact-pii',
  async preToolCall(ctx) {
    // mutate ctx.args, or throw to abort the tool call before it runs
    const args = ctx.args as { note?: string };
    if (typeof args.note === 'string') args.note = args.note.replace(/[\w.+-]+@[\w-]+\.[\w.]+/g, '[email]');
  },
};
const hooks = new HookRegistry();
hooks.register(redactPii);

// The registry goes straight into createAgent({ hooks }).
const saved: string[] = [];
const saveNote = defineTool({ name: 'save_note', description: 'Save a note', input: z.object({ note: z.string() }), execute: async ({ note }) => (saved.push(note), 'saved') });
const agent = createAgent({
  instructions: 'You take notes.',
  provider: mockModel([{ toolCalls: [{ name: 'save_note', args: { note: 'Call jane.doe@example.com on Monday' } }] }, 'Noted.']),
  tools: [saveNote],
  hooks,
});
await agent.send('Note: call Jane on Monday');
console.log(`hooks: ${hooks.list().map((hook) => hook.name).join(', ')}`);
console.log(`the tool saved: ${saved[0]}`);
