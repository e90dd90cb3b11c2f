import type { ToolErrorKind, ToolErrorResult } from '../contracts/tools.js';
import { toolFields } from './reduce.js';
import type { UIToolState } from './types.js';

/** A tool error's UI state: a stop or a call that never started is `cancelled`, a person's no is `rejected`. */
export const toolStateForError = (kind: ToolErrorKind): UIToolState => (kind === 'not-run' ? 'cancelled' : kind === 'cancelled' || kind === 'rejected' ? kind : 'error');

/**
 * `toolFields` and the tool events a browser client's entry reducer leaves to the full one
 * (reduce-agent-events.ts): a call's failure, its progress, and a result with artifacts. A page
 * whose calls succeed with plain results, which is most of them, does not download their cases;
 * the first such event loads them (client-core.ts).
 */
export const allToolFields: typeof toolFields = (event, part) =>
  event.type === 'tool.error'
    ? { state: toolStateForError((event.error as ToolErrorResult).kind), error: event.error as ToolErrorResult }
    : event.type === 'tool.progress'
      ? part && { progress: event.progress }
      : event.type === 'tool.done' && event.artifacts
        ? { state: 'done', result: event.result, artifacts: event.artifacts }
        : toolFields(event, part);
