export { createTriageFlow, createTriageAgent, triageSuggestions, type TriageFlow, type TriageAgent, type TriageFlowOptions, type TriageAgentOptions, type TriageReply } from './triage-flow.js';
export { createTriageModel, classifySupportMessage, draftSupportReply, triageReply, CLASSIFY_PROMPT, DRAFT_PROMPT, type TriageCategory } from './triage-model.js';
