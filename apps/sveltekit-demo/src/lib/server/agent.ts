// The app's one agent and its HTTP handler, made once per server process. Server-only ($lib/server):
// a browser bundle can never import it. Sessions are per conversation (their ids), never per module.
import { env } from '$env/dynamic/private';
import { createAgentHandler, memoryStore } from '@lousho/build-ai-agent';
import { createDemoAgent } from '@lousho/demo-agent';
import { chooseModel } from './model.js';

/** Where the handler is mounted: src/routes/api/agent/[...path]/+server.ts. */
export const AGENT_PATH = '/api/agent';

const chosen = chooseModel(env);
if (chosen.warning) console.warn(chosen.warning);

/** What the page says about the model that answers. */
export const modelInfo = chosen.info;

/** The agent's sessions, in memory: `GET /api/sessions` lists them, chats and trigger runs alike. */
export const store = memoryStore();

export const agent = createDemoAgent({
  ...(chosen.provider ? { provider: chosen.provider } : {}),
  ...(chosen.model ? { model: chosen.model } : {}),
  store,
});

/** The Fetch-API handler of the agent's routes (docs/http.md), mounted below AGENT_PATH. */
export const handleAgentRequest = createAgentHandler(agent, {
  basePath: AGENT_PATH,
  onError: (error) => console.error('[sveltekit-demo] agent handler:', error),
});
