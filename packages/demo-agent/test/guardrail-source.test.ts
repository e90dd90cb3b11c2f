import { expect, it } from 'vitest';
import { guardrailSource } from '../src/display/guardrail.js';

it('names the guardrail and what it blocked, in words', () => {
  expect(guardrailSource({ name: 'command', stage: 'tool' })).toBe('The command guardrail blocked a tool call.');
  expect(guardrailSource({ name: 'pii', stage: 'input' })).toBe('The pii guardrail blocked your message.');
  expect(guardrailSource({ name: 'toxicity', stage: 'output' })).toBe('The toxicity guardrail blocked the reply.');
});
