export type {
  AgentUIState,
  AgentUIStatus,
  AnyUIToolPart,
  UIMessage,
  UIPart,
  UITextPart,
  UIReasoningPart,
  UICompactionPart,
  UIImagePart,
  UIFilePart,
  UIAttachmentPart,
  UIToolPart,
  UIToolPartOf,
  ToolsOf,
  ToolPartFor,
  UIToolState,
  UIToolApproval,
  UIFlowNodePart,
  UISubagent,
  UISubagentStatus,
  UIQueuedMessage,
} from './types.js';
export { reduceAgentEvents } from './reduce-agent-events.js';
export { initialAgentUIState } from './snapshot.js';
export { stateFromTranscript } from './state-from-transcript.js';
export type { TranscriptStateOptions } from './transcript.js';
