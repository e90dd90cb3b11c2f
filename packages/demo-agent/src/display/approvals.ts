/** What the approval panel's note field suggests, per tool: an example of a note that fits what is approved. */
const NOTE_PLACEHOLDERS: Readonly<Record<string, string>> = {
  send_email: 'Not to external addresses, please…',
  save_findings: 'Leave out the unsourced figures, please…',
  // The triage flow's review of the drafted reply.
  review: 'Ask for the order number first, please…',
  edit_file: 'Keep the old name as an alias, please…',
};

/** The placeholder of the note field for an approval of `toolName` (a generic one for a tool it does not know). */
export function approvalNotePlaceholder(toolName: string): string {
  return Object.hasOwn(NOTE_PLACEHOLDERS, toolName) ? NOTE_PLACEHOLDERS[toolName]! : 'Why you approve or reject it (optional)…';
}

/**
 * What the dock says while a sub-agent's call waits: the card of that call holds the decision (its
 * buttons), so the dock points there rather than showing the same approval a second time.
 */
export function subagentApprovalPointer(approval: { displayName: string; toolName: string; subagent?: { name: string } | undefined }): string {
  const who = approval.subagent ? `The ${approval.subagent.name} sub-agent` : 'The sub-agent';
  return `${who} waits for your decision on ${approval.displayName || approval.toolName}: approve or reject it in its card above.`;
}

/** Whether the dock shows the approval itself, or only points at the sub-agent card that shows it. */
export const approvalShownInCard = (approval: { kind: string; subagent?: unknown }): boolean => approval.kind === 'tool' && approval.subagent !== undefined;
