// docs/flows.md, "A complete example" (verbatim; the export line is the test's).
import { createAgent, FlowBuilder, FlowExecutor, memoryStore } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const classifier = createAgent({ provider: mockModel(['refund'], { whenExhausted: 'repeat-last' }), instructions: 'Answer refund, bug or question.' });
const writer = createAgent({ provider: mockModel(['We have refunded your order.'], { whenExhausted: 'repeat-last' }) });
const outbox: string[] = [];

const triage = FlowBuilder.create('triage', { input: z.object({ email: z.string(), message: z.string() }) })
  .agent('classify', { agent: classifier, input: 'Classify this message: {{input.message}}' })
  .oneOf('route', {
    branches: [
      { when: "classify === 'refund'", then: 'refund' },
      { when: "'{{classify}}' === 'bug'", then: 'bug' },
    ],
    otherwise: 'answer',
  })
  .agent('refund', { agent: writer, input: 'Confirm the refund to: {{input.message}}', after: 'route' })
  .agent('bug', { agent: writer, input: 'Thank them for the bug report: {{input.message}}', after: 'route' })
  .agent('answer', { agent: writer, input: 'Answer: {{input.message}}', after: 'route' })
  .approval('review', {
    title: 'Send this reply to {{input.email}}?',
    data: (vars) => vars.refund ?? vars.bug ?? vars.answer,
    after: { any: ['refund', 'bug', 'answer'] },
  })
  .step('send', (vars) => {
    const text = vars.refund ?? vars.bug ?? vars.answer ?? '';
    outbox.push(text);
    return { to: vars.input.email, text };
  })
  .build();

const store = memoryStore();
const paused = await FlowExecutor.run(triage, { email: 'ada@example.com', message: 'I was charged twice' }, { sessionId: 'ticket-42', store });
paused.finishReason; // 'awaiting-approval'
paused.path; // ['classify', 'route', 'refund']

const done = await FlowExecutor.resolve(triage, { approvalId: paused.approvalId!, approved: true }, { store });
done.finishReason; // 'stop'
done.outputs.send; // { to: 'ada@example.com', text: 'We have refunded your order.' }
done.usage.modelCalls; // 2: every agent call is counted

export { triage, paused, done, outbox };
