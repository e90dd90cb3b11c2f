// The forms the reference docs give in "Skills", "Memory" and "Context compaction", as written.
import { fileURLToPath } from 'node:url';
import { createAgent, createCompactionHook, defineMemory, defineSkill, inMemoryMemory, loadSkills, twoPhaseStrategy } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';

const dir = fileURLToPath(new URL('./skills', import.meta.url));
const name = 'tone';
const description = 'How to write replies';
const content = 'Short sentences. No jargon.';
const scope = 'session';
const provider = inMemoryMemory();

export const model = mockModel(['Refunds take 5 days.', 'Noted.'], { model: 'gpt-4o-mini' });
export const summarizer = mockModel(['summary']);
export const agent = createAgent({
  provider: model,
  skills: [defineSkill({ name, description, content }), ...(await loadSkills(dir))],
  memory: [defineMemory({ name: 'customer', scope, provider })],
  hooks: [createCompactionHook({ strategy: twoPhaseStrategy({ model: summarizer }) })],
});
export const withDefaults = createAgent({ provider: mockModel(['ok'], { model: 'gpt-4o-mini' }), compaction: true });
