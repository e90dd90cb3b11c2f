import { createAgentClient, memoryStore, type UIFlowNodePart } from '@lousho/build-ai-agent';
import { describe, expect, it } from 'vitest';
import { classifySupportMessage, createTriageAgent, FlowExecutor, triageSuggestions } from './triage-imports.js';

describe('the triage flow of the demos', () => {
  it.each([
    ['refund', triageSuggestions[0]!.prompt],
    ['bug', triageSuggestions[1]!.prompt],
    ['question', triageSuggestions[2]!.prompt],
  ])('a %s message takes its branch, waits for review, and is sent once approved', async (category, message) => {
    expect(classifySupportMessage(message)).toBe(category);
    const agent = createTriageAgent({ charDelayMs: 0, store: memoryStore() });
    const paused = await agent.run({ message }).result;
    expect(paused.finishReason).toBe('awaiting-approval');
    const draft = category === 'question' ? 'answer' : category;
    expect(paused.path).toEqual(['classify', 'route', draft]);
    expect(paused.pendingApproval?.args).toBe(paused.outputs[draft as 'refund']);
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.outputs.send).toMatchObject({ sent: true, id: 'reply_1' });
    expect(agent.outbox).toEqual([expect.objectContaining({ message, category })]);
    expect(done.usage.modelCalls).toBe(2);
  });

  it('served like an agent: a client sends the customer text, sees one card per node, and a rejection sends nothing', async () => {
    const agent = createTriageAgent({ charDelayMs: 0, store: memoryStore() });
    const client = createAgentClient({ agent }, { throttleMs: 0 });
    expect(await client.send('My order arrived broken, I want a refund')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
    const nodes = () => client.getSnapshot().messages.flatMap((m) => m.parts).filter((p): p is UIFlowNodePart => p.type === 'flow-node');
    expect(nodes().map((n) => [n.displayName, n.state])).toEqual([
      ['Classify', 'done'],
      ['Route', 'done'],
      ['Draft: refund', 'done'],
      ['Review', 'awaiting-approval'],
    ]);
    expect(await client.reject('Too vague')).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(client.getSnapshot().messages.at(-1)?.parts.at(-1)).toEqual({ type: 'text', text: 'Not sent: Too vague' });
    expect(agent.outbox).toEqual([]);
    expect(await client.send('   ')).toMatchObject({ ok: false, error: { code: 'LOUSHO_INVALID_INPUT' } });
    client.destroy();
  });

  it('runs with FlowExecutor too', async () => {
    const { createTriageFlow } = await import('./triage-imports.js');
    const flow = createTriageFlow({ charDelayMs: 0 });
    const result = await FlowExecutor.run(flow, { message: 'Where is your office?' }, { store: memoryStore() });
    expect(result.outputs.classify).toBe('question');
  });
});
