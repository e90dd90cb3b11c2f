// The shared demo agent of the Lousho demos. Isomorphic: nothing here may import a Node-only module.
export { createDemoAgent, DEMO_AGENT_INSTRUCTIONS, DEMO_CONTEXT_WINDOW, DEMO_NOTES_INSTRUCTIONS, type DemoAgent, type DemoAgentCodingOptions, type DemoAgentOptions } from './demo-agent.js';
export { createDemoResearcher, DEMO_RESEARCHER_DESCRIPTION, DEMO_RESEARCHER_INSTRUCTIONS, type DemoResearcherOptions } from './researcher.js';
export { createInPageDemoAgent, createInPageTriageAgent, IN_PAGE_DATABASE, IN_PAGE_SESSION_KEY, IN_PAGE_TRIAGE_DATABASE, IN_PAGE_TRIAGE_SESSION_KEY } from './in-page-agent.js';
export {
  createDemoModel,
  decideDemoReply,
  DemoModelFailure,
  DEFAULT_CHAR_DELAY_MS,
  DEMO_MODEL_FAILURE_MESSAGE,
  type DemoModelOptions,
  type DemoReply,
} from './demo-model.js';
export { DEMO_CALL_IDS_ENV, DEMO_CALL_IDS_STORAGE_KEY, type DemoCallIds } from './call-ids.js';
export { ATTACHMENT_ACCEPT, filesOf, formatFileSize, isThumbnailType } from './attachments.js';
export { DEMO_SUMMARY_MODEL_ID, summarizeConversation } from './summary.js';
export { DEMO_MODEL_ID, DEMO_MODEL_NOTICE, DEMO_PROVIDER_NAME, demoSuggestions, offersDemoSuggestions, type DemoSuggestion } from './notice.js';
export { KNOWN_CITIES, DEFAULT_CITY } from './cities.js';
export type { PlannedCall } from './intents.js';
export * from './tools/index.js';
// Display helpers the three demos share (framework-neutral).
export { approvalNotePlaceholder, approvalShownInCard, subagentApprovalPointer } from './display/approvals.js';
export { compactionNote } from './display/compaction.js';
export { readProgress, type ReadProgress } from './display/progress.js';
export { humanize, linkList, optionsOf, questionOf, safeHref, safeJson } from './display/values.js';
export { demoLinks, portBeside, DEMO_SERVER_PORT, SVELTEKIT_DEMO_PORT, type DemoLink, type DemoName } from './display/demo-links.js';
export {
  openedSessionOf,
  pollSessionList,
  readOpenedSession,
  sessionItemAttributes,
  sessionItemLabels,
  shortSessionId,
  urlForSession,
  writeOpenedSession,
  SESSION_ORIGIN_LABELS,
  SESSION_ORIGIN_TITLES,
  SESSION_STATE_LABELS,
  type SessionOrigin,
  type SessionSummary,
} from './display/sessions.js';
export { keepThreadsFresh, navigateToThread, threadItemAttributes, threadOrigin, threadRowLabels, THREAD_LIST_REFRESH_MS, type ThreadSummary } from './display/threads.js';
export { flowNodesOf, flowNodeView, flowReplyText, lastUserText as flowInputText, type FlowNodeView } from './display/flow.js';
// The triage flow of the demos (a flow served like an agent).
export * from './triage/index.js';
// The coding part: the tiny project its workspace tools work on, and the guardrail on its shell.
export { createDemoWorkspace, DEMO_PROJECT_FILES, DEMO_TYPO } from './coding/project.js';
export { createCodingTools, demoCommandGuardrail, inMemoryCoding, type DemoCoding } from './coding/tools.js';
export { readView, urlForView, VIEW_LABELS, viewOf, writeView, type View } from './display/view.js';
export { cutCardNote, INTERRUPTED_HINT, INTERRUPTED_LABEL, interruptedHint, interruptedNote, RUN_STATUS_LABELS, SUBAGENT_STATUS_LABELS, type AgentPlace } from './display/status-labels.js';
export { guardrailSource } from './display/guardrail.js';
export { BROWSER_TOOL_LABELS } from './display/browser-tools.js';
