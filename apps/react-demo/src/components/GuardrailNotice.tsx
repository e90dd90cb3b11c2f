import type { AgentUIState } from '@lousho/build-ai-agent';
import { guardrailSource } from '@lousho/demo-agent';

/** Why a run ended on a guardrail: which one, at what stage, and its reason. */
export function GuardrailNotice({ guardrail }: { guardrail: NonNullable<AgentUIState['guardrail']> }) {
  return (
    <div className="guardrail-notice" role="status" data-testid="guardrail">
      <strong>Stopped by a guardrail.</strong> <span data-testid="guardrail-reason">{guardrail.reason}</span>
      <span className="guardrail-source" data-testid="guardrail-source">
        {guardrailSource(guardrail)}
      </span>
    </div>
  );
}
