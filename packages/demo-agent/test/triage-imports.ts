export { classifySupportMessage, createTriageAgent, createTriageFlow, triageSuggestions } from '../src/index.js';
export { FlowExecutor } from '@lousho/build-ai-agent';
