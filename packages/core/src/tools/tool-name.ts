/** What LLM providers accept as a function name: 1-64 letters, digits, `_` and `-`. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** True for a name providers accept for a tool: 1-64 letters, digits, `_` and `-`. */
export function isValidToolName(name: unknown): name is string {
  return typeof name === 'string' && TOOL_NAME_PATTERN.test(name);
}

/** The closest valid name: runs of other characters become `_`, trimmed, cut to 64. */
export function suggestToolName(name: unknown): string {
  const text = typeof name === 'string' ? name : '';
  const cleaned = text
    .trim()
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return cleaned || 'my_tool';
}

/**
 * Why a name is not usable, with the fix, or `undefined` when it is fine.
 * `subject` names the value in the sentence (`name`, `the registered name`).
 */
export function toolNameProblem(name: unknown, subject = 'name'): string | undefined {
  if (isValidToolName(name)) return undefined;
  const fix = `Use 1-64 letters, digits, _ and - only, e.g. '${suggestToolName(name)}'.`;
  if (name === undefined || name === null) return `${subject} is missing. ${fix}`;
  if (typeof name !== 'string') return `${subject} must be a string, got ${typeof name}. ${fix}`;
  if (name.length === 0) return `${subject} is empty. ${fix}`;
  if (name.length > 64) return `${subject} '${name.slice(0, 20)}...' is ${name.length} characters long; providers accept at most 64. ${fix}`;
  const bad = [...new Set(name.replace(/[a-zA-Z0-9_-]/g, ''))].map(describeChar).join(', ');
  return `${subject} '${name}' contains characters providers reject (${bad}). ${fix}`;
}

function describeChar(char: string): string {
  if (char === ' ') return 'a space';
  if (/\s/.test(char)) return JSON.stringify(char);
  return `'${char}'`;
}
