// Reducer bookkeeping that is not part of the public state: the bits of a snapshot's `cursor`. Apart
// from snapshot.ts so the message operations can read them without importing the snapshot.
/** Reply content goes into the last message (an assistant message of the current run). */
export const CURSOR_OPEN = 1;
/** A new step began: the next text or reasoning starts a new part. */
export const CURSOR_STEP_BOUNDARY = 2;
/**
 * The bits above these two (`cursor >> 2`): 1 + the index in the reply of the current step's first
 * part, 0 when not known (a state from JSON, after `run.interrupted`): where a call-starting event
 * looks for its call (see `updateToolPart`).
 */
export const CURSOR_STEP_SHIFT = 2;
