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
  UIToolPart,
  UIToolPartOf,
  ToolsOf,
  ToolPartFor,
  UIToolState,
  UIToolApproval,
  UIFlowNodePart,
} from './types.js';
export { reduceAgentEvents } from './reduce.js';
export { initialAgentUIState } from './snapshot.js';
export { stateFromTranscript, type TranscriptStateOptions } from './transcript.js';
