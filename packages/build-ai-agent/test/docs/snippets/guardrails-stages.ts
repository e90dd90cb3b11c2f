import { createAgent, runGuardrails, secretScanGuardrail, type Guardrail } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';

const noPasswords: Guardrail = {
  name: 'no-passwords',
  check: (ctx) => (ctx.stage === 'input' && /password/i.test(ctx.text) ? { block: 'Please do not paste passwords here.' } : undefined),
};

const provider = mockModel(['Hi!']);
const agent = createAgent({
  provider,
  guardrails: { input: [noPasswords, secretScanGuardrail], output: [secretScanGuardrail] },
});

export const result = await agent.send('my password is hunter2');
console.log(result.finishReason); // 'guardrail'
console.log(result.guardrail); // { name: 'no-passwords', stage: 'input', reason: 'Please do not paste passwords here.' }
export const modelCalls = provider.calls.length; // 0: the model never saw it

// The same checks, by hand (e.g. on text from somewhere else):
export const block = await runGuardrails([secretScanGuardrail], { stage: 'output', text: 'key: AKIAIOSFODNN7ABCDEFG' });
console.log(block?.reason); // 'the reply contains an AWS access key id.'
