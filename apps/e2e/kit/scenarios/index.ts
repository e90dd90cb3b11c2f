import { useBrowser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { describeAccessibility } from './accessibility.js';
import { describeApproval } from './approval.js';
import { describeAttachments } from './attachments.js';
import { describeApprovalNotesAndSuggestions } from './approval-notes-and-suggestions.js';
import { describeBrowserTools } from './browser-tools.js';
import { describeCompaction } from './compaction.js';
import { describeCompactionNotes } from './compaction-notes.js';
import { describeGuardrail } from './guardrail.js';
import { describeLongChat } from './long-chat.js';
import { describeMcpNotes } from './mcp-notes.js';
import { describePageInterrupted } from './page-interrupted.js';
import { describeQuestionAndError } from './question-and-error.js';
import { describeQueue } from './queue.js';
import { describeReload } from './reload.js';
import { describeSafety } from './safety.js';
import { describeSessionsPanel } from './sessions-panel.js';
import { describeStop } from './stop.js';
import { describeSubagents } from './subagents.js';
import { describeTriage } from './triage.js';
import { describeTriageKept } from './triage-kept.js';
import { describeThreads } from './threads.js';
import { describeTriggerSessions } from './trigger-sessions.js';

export { describeAccessibility, describeApproval, describeAttachments, describeApprovalNotesAndSuggestions, describeBrowserTools, describeCompaction, describeCompactionNotes, describeGuardrail, describeLongChat, describeMcpNotes, describePageInterrupted, describeQuestionAndError, describeQueue, describeReload, describeSafety, describeSessionsPanel, describeStop, describeSubagents, describeThreads, describeTriage, describeTriageKept, describeTriggerSessions };
export { HTML_PAYLOAD } from './safety.js';

/** Registers every scenario the demos share, on one Chromium for the calling test file. */
export function describeSharedScenarios(target: DemoTarget): void {
  const browser = useBrowser();
  describeAccessibility(target, browser);
  describeApproval(target, browser);
  describeQuestionAndError(target, browser);
  describeBrowserTools(target, browser);
  describeReload(target, browser);
  describeSafety(target, browser);
  describeStop(target, browser);
  describeGuardrail(target, browser);
  describeMcpNotes(target, browser);
  describeTriage(target, browser);
  describeCompaction(target, browser);
  describeLongChat(target, browser);
  describeSubagents(target, browser);
  describeTriggerSessions(target, browser);
  describeTriageKept(target, browser);
  describeCompactionNotes(target, browser);
  describePageInterrupted(target, browser);
  describeSessionsPanel(target, browser);
  describeApprovalNotesAndSuggestions(target, browser);
  describeQueue(target, browser);
  describeAttachments(target, browser);
  describeThreads(target, browser);
}
