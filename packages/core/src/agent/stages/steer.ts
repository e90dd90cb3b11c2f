import type { GuardrailInfo } from '@lousho/protocol';
import type { RunSnapshot } from '@lousho/protocol';
import { copyWithSharedShape } from '@lousho/protocol';
import type { LoopDeps } from '../loop-deps.js';
import { checkInputGuardrails } from './guardrails.js';

/**
 * The steering stage, at each step boundary before the model is called: messages sent to the
 * session with `mode: 'steer'` while the turn runs join the transcript (`message.unqueued` with
 * `reason: 'steered'`, then `user.message`), so the model sees them in this step's call. They pass
 * the input guardrails first, as a turn's input does: a block ends the run (returned).
 */
export async function takeSteeringMessages(deps: LoopDeps, snapshot: RunSnapshot): Promise<GuardrailInfo | undefined> {
  const steered = deps.takeSteered?.();
  if (!steered?.length) return undefined;
  for (const { queueId } of steered) deps.emit({ type: 'message.unqueued', queueId, reason: 'steered' });
  const messages = steered.map((item) => item.message);
  const blocked = await checkInputGuardrails(deps, snapshot, messages);
  if (blocked) return blocked;
  for (const message of messages) {
    const frozen = Object.freeze(copyWithSharedShape(message));
    snapshot.messages.push(frozen);
    deps.emit({ type: 'user.message', message: frozen });
  }
  await deps.checkpoint?.(snapshot);
  return undefined;
}
