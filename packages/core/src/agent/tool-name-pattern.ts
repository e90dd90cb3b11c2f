/**
 * Whether a permission rule's name pattern covers a tool: `'*'` is every tool, a `*` inside a name
 * stands for any run of characters (`github__*` covers every tool of the `github` MCP server,
 * `*_file` both `read_file` and `write_file`), anything else is the exact name.
 */
export function matchesToolName(pattern: string, toolName: string): boolean {
  if (!pattern.includes('*')) return pattern === toolName;
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (toolName.length < first.length + last.length || !toolName.startsWith(first) || !toolName.endsWith(last)) return false;
  // The middle pieces must appear in order between the fixed start and end; the earliest fit is always best.
  let at = first.length;
  const end = toolName.length - last.length;
  for (const piece of parts.slice(1, -1)) {
    const found = toolName.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
