/**
 * What stands for a reply an output guardrail blocked: in the transcript (so it never goes back to
 * the model), in the UI state once `run.done` says so, and in the stored event log (so a reload or a
 * second client never replays the blocked text).
 */
export const withheldReplyText = (guardrail: string): string => `[This reply was withheld by the guardrail '${guardrail}'.]`;
