// The app's one agent and its HTTP handler, made once per server process. Server-only ($lib/server):
// a browser bundle can never import it. Sessions are per conversation (their ids), never per module.
import { building } from '$app/environment';
import { env } from '$env/dynamic/private';
import { createAgentHandler, MemoryFileStore, memoryStore } from '@lousho/build-ai-agent';
import { createDemoAgent, inMemoryCoding } from '@lousho/demo-agent';
import { createDemoCoding, type ServerCoding } from '@lousho/demo-agent/server';
import { chooseModel } from './model.js';

/** Where the handler is mounted: src/routes/api/agent/[...path]/+server.ts. */
export const AGENT_PATH = '/api/agent';

const chosen = chooseModel(env);
if (chosen.warning) console.warn(chosen.warning);

/** What the page says about the model that answers. */
export const modelInfo = chosen.info;

/** The agent's sessions, in memory: `GET /api/sessions` lists them, chats and trigger runs alike. */
export const store = memoryStore();

/**
 * Where the coding tools work, as on the demo server: a real copy of the demo project whose
 * commands run in a bubblewrap sandbox, or, without bubblewrap, the in-memory project with simulated
 * commands. `coding.note` says which (the start banner prints it). The copy is removed when the
 * process exits. While building, nothing is copied (the build only loads this module).
 */
export const coding: ServerCoding = building ? { ...inMemoryCoding(), dispose: async () => {} } : await createDemoCoding();
if (!building) process.once('exit', () => void coding.dispose());

export const agent = createDemoAgent({
  coding,
  ...(chosen.provider ? { provider: chosen.provider } : {}),
  ...(chosen.model ? { model: chosen.model } : {}),
  store,
  // Uploaded attachments, in memory like the sessions.
  files: new MemoryFileStore(),
});

/** The Fetch-API handler of the agent's routes (docs/http.md), mounted below AGENT_PATH. */
export const handleAgentRequest = createAgentHandler(agent, {
  basePath: AGENT_PATH,
  onError: (error) => console.error('[sveltekit-demo] agent handler:', error),
});
