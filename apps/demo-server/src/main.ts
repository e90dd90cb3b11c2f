// Starts the demo server: `pnpm --filter demo-server start` (PORT, HOST, LOUSHO_MODEL, DEMO_WEBHOOK_PORT, DEMO_WEBHOOK_TOKEN and DEMO_CRON from the environment).
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSystemFileStore } from '@lousho/build-ai-agent/node';
import { SqliteStore } from '@lousho/build-ai-agent/sqlite';
import { serveMcp } from '@lousho/build-ai-agent/mcp';
import { createDemoAgent, createTriageAgent } from '@lousho/demo-agent';
import { createDemoCoding, startDemoTriggers, triggerSettings, triggerStartFailure } from '@lousho/demo-agent/server';
import { STATIC_APPS } from './apps.js';
import { startBanner } from './banner.js';
import { chooseModel, modelChoiceFailure, type ChosenModel } from './model.js';
import { notesServerConfig } from './notes-server.js';
import { createDemoServer, MCP_PATH } from './server.js';

const host = process.env['HOST']?.trim() || '127.0.0.1';
const port = parsePort(process.env['PORT']);

let chosen: ChosenModel;
try {
  chosen = chooseModel(process.env);
} catch (error) {
  console.error(modelChoiceFailure(error));
  process.exit(1);
}
if (chosen.warning) console.warn(chosen.warning);
// Sessions, checkpoints and pending approvals live in one SQLite file, so they survive a restart.
// DEMO_DATA_DIR moves it (the browser tests use a temporary folder).
const dataDir = process.env['DEMO_DATA_DIR']?.trim() || resolve(dirname(fileURLToPath(import.meta.url)), '../data');
mkdirSync(dataDir, { recursive: true });
const store = new SqliteStore(resolve(dataDir, 'demo.db'));
// The coding tools: a real copy of the demo project whose commands run in a bubblewrap sandbox, or,
// without bubblewrap, the in-memory project with simulated commands (the banner says which).
const coding = await createDemoCoding();
const agent = createDemoAgent({
  coding,
  ...(chosen.provider ? { provider: chosen.provider } : {}),
  ...(chosen.model ? { model: chosen.model } : {}),
  store,
  // Uploaded attachments, next to the database (deleted with their thread).
  files: new FileSystemFileStore({ dir: resolve(dataDir, 'files') }),
  // The notes tools come from an MCP server (src/notes-mcp-server.ts), started over stdio on the
  // first run; its stderr goes to this process's stderr, tagged [mcp:notes].
  mcpServers: { notes: notesServerConfig(resolve(dataDir, 'notes.json')) },
  mcpOptions: { logger: console },
});

// A webhook (and, with DEMO_CRON, a schedule) that start runs in the same store: the demos' Sessions
// panel lists them, and they can be followed and approved like a chat.
let triggers: Awaited<ReturnType<typeof startDemoTriggers>>;
try {
  triggers = await startDemoTriggers(agent, triggerSettings(process.env, host));
} catch (error) {
  console.error(triggerStartFailure(error));
  process.exit(1);
}

// The triage flow runs on the offline triage model, checkpointed in the same SQLite file.
const triage = createTriageAgent({ store });
// The same agent for MCP clients (Claude Desktop, an IDE): Streamable HTTP at /api/mcp.
const mcp = serveMcp(agent, { toolName: 'ask_lousho_demo' });
const server = createDemoServer({ agent, triage, model: chosen.info, apps: STATIC_APPS, sessions: store.sessions, triggers, mcp });
server.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') console.error(`Port ${port} is in use: start with PORT=<another port>.`);
  else console.error(error.message);
  process.exit(1);
});
server.listen(port, host, () => {
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const model = chosen.info.kind === 'demo' ? 'the offline demo model' : `${chosen.info.provider}/${chosen.info.model}`;
  const origin = `http://${shownHost}:${address.port}`;
  const mcpLine = `  MCP server (Streamable HTTP) ${origin}${MCP_PATH}`;
  for (const line of [...startBanner(origin, model, STATIC_APPS, port), mcpLine, ...triggers.banner, coding.note]) console.log(line);
});

// Streams stay open while runs go on: end them so Ctrl-C stops at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // The webhook's port is freed at once; its runs end with the agent (as the chat turns do).
    void triggers.stop();
    server.close(() => void mcp.close().then(() => agent.close()).then(() => coding.dispose()).finally(() => process.exit(0)));
    server.closeAllConnections();
  });
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    console.error(`PORT must be a number from 0 to 65535, not "${value}".`);
    process.exit(1);
  }
  return parsed;
}
