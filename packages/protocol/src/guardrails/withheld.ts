/**
 * What stands for a reply an output guardrail blocked: in the transcript (so it never goes back to
 * the model), in the UI state once `run.done` says so, and in the stored event log (so a reload or a
 * second client never replays the blocked text).
 */
export const withheldReplyText = (guardrail: string): string => `[This reply was withheld by the guardrail '${guardrail}'.]`;

const WITHHELD_HEAD = "[This reply was withheld by the guardrail '";
const WITHHELD_TAIL = "'.]";

/**
 * The guardrail named by a `withheldReplyText` (a sub-agent's answer, as its delegate call's
 * result, when an output guardrail blocked its reply), else undefined. String checks only: linear.
 */
export function withheldBy(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(WITHHELD_HEAD) || !value.endsWith(WITHHELD_TAIL)) return undefined;
  if (value.length < WITHHELD_HEAD.length + WITHHELD_TAIL.length) return undefined;
  return value.slice(WITHHELD_HEAD.length, value.length - WITHHELD_TAIL.length);
}
