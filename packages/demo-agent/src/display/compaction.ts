/** What a compaction divider says: which of the older conversation was shortened to fit the model's window. */
export function compactionNote(part: { pruned: number; summarized: number }): string {
  const results = part.pruned === 1 ? 'an older tool result' : `${part.pruned} older tool results`;
  if (part.summarized > 0) {
    return part.pruned > 0 ? `Older turns were summarized, and ${results} shortened, to fit the model's context.` : "Older turns were summarized to fit the model's context.";
  }
  return `${part.pruned === 1 ? 'An older tool result was' : `${part.pruned} older tool results were`} shortened to fit the model's context.`;
}
