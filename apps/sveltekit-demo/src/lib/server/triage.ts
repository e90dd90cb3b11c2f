// The app's triage flow and its HTTP handler, made once per server process (server-only).
import { createAgentHandler } from '@lousho/build-ai-agent';
import { createTriageAgent } from '@lousho/demo-agent';

/** Where the handler is mounted: src/routes/api/triage/[...path]/+server.ts. */
export const TRIAGE_PATH = '/api/triage';

/** The triage flow on the offline triage model, served like an agent. */
export const triage = createTriageAgent();

export const handleTriageRequest = createAgentHandler(triage, {
  basePath: TRIAGE_PATH,
  onError: (error) => console.error('[sveltekit-demo] triage handler:', error),
});
