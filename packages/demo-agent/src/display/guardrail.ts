import type { GuardrailInfo } from '@lousho/build-ai-agent';

/** What a guardrail at each stage looks at: what it blocked when it stops a run. */
const BLOCKED: Readonly<Record<GuardrailInfo['stage'], string>> = {
  input: 'your message',
  output: 'the reply',
  tool: 'a tool call',
};

/** The line under a guardrail's notice, e.g. "The command guardrail blocked a tool call." */
export function guardrailSource(guardrail: Pick<GuardrailInfo, 'name' | 'stage'>): string {
  return `The ${guardrail.name} guardrail blocked ${BLOCKED[guardrail.stage] ?? 'the run'}.`;
}
