import { describe, expect, it } from 'vitest';
import { approvalNotePlaceholder, approvalShownInCard, subagentApprovalPointer } from '../src/display/approvals.js';
import { offersDemoSuggestions } from '../src/notice.js';

describe('approval display', () => {
  it('suggests a note that fits the tool (the email’s example was shown for every approval)', () => {
    expect(approvalNotePlaceholder('send_email')).toMatch(/external addresses/);
    for (const tool of ['save_findings', 'review', 'anything_else', 'constructor', '__proto__']) expect(approvalNotePlaceholder(tool)).not.toMatch(/external addresses/);
    expect(approvalNotePlaceholder('review')).toMatch(/order number/);
  });

  it('a sub-agent’s tool approval is shown in its card only; the dock points there', () => {
    const approval = { kind: 'tool', toolName: 'save_findings', displayName: 'Save findings', subagent: { name: 'researcher' } };
    expect(approvalShownInCard(approval)).toBe(true);
    expect(approvalShownInCard({ ...approval, subagent: undefined })).toBe(false);
    // A sub-agent's question is answered in the dock (the card has no form for it).
    expect(approvalShownInCard({ ...approval, kind: 'question' })).toBe(false);
    expect(subagentApprovalPointer(approval)).toBe('The researcher sub-agent waits for your decision on Save findings: approve or reject it in its card above.');
  });

  it('offers the suggestion chips unless the model is a real one', () => {
    expect(offersDemoSuggestions({ kind: 'demo' })).toBe(true);
    expect(offersDemoSuggestions(undefined)).toBe(true);
    expect(offersDemoSuggestions({ kind: 'real' })).toBe(false);
  });
});
