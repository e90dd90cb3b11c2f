import type { ResultWithArtifacts } from '@lousho/protocol';
import type { ToolArtifact } from '@lousho/protocol';

/*
 * Artifacts are data a tool hands to the application (a chart, a file, a preview) alongside its
 * result. They travel on events and reach the UI, but the model only ever sees the plain value.
 * The marker is a plain string property so a wrapped result survives a JSON round trip
 * (checkpoints, the wire) and is still recognised afterwards.
 */

/**
 * Wraps a tool result with artifacts: `return withArtifacts({ rows: 3 }, [{ type: 'table', data }])`.
 * `ToolOutput` of the tool is still the plain value's type.
 */
export function withArtifacts<T>(value: T, artifacts: ToolArtifact | readonly ToolArtifact[]): ResultWithArtifacts<T> {
  const list = Array.isArray(artifacts) ? [...(artifacts as readonly ToolArtifact[])] : [artifacts as ToolArtifact];
  return { __loushoArtifacts: true, value, artifacts: list };
}

/** True for a result made with `withArtifacts()`. */
export function isResultWithArtifacts(result: unknown): result is ResultWithArtifacts<unknown> {
  return (
    typeof result === 'object' &&
    result !== null &&
    (result as { __loushoArtifacts?: unknown }).__loushoArtifacts === true &&
    'value' in result &&
    Array.isArray((result as { artifacts?: unknown }).artifacts)
  );
}

/**
 * Separates what the model gets (`value`) from what only events and the UI get (`artifacts`,
 * present only when there is at least one). A result without artifacts comes back as `{ value }`.
 */
export function splitArtifacts<T>(result: T | ResultWithArtifacts<T>): { value: T; artifacts?: ToolArtifact[] } {
  if (!isResultWithArtifacts(result)) return { value: result as T };
  const { value, artifacts } = result as ResultWithArtifacts<T>;
  return artifacts.length > 0 ? { value, artifacts: [...artifacts] } : { value };
}
