import { createAgent, twoPhaseStrategy, type Agent, type AgentStore, type FileStore, type LLMProvider, type McpConnectOptions, type McpServers } from '@lousho/build-ai-agent';
import { createDemoModel } from './demo-model.js';
import { DEMO_PROVIDER_NAME } from './notice.js';
import { createCodingTools, demoCommandGuardrail, type DemoCoding } from './coding/tools.js';
import type { FsProvider, MemoryWorkspace } from '@lousho/build-ai-agent';
import { createDemoTools, type DemoEmail } from './tools/index.js';
import type { DemoSavedFindings } from './tools/findings.js';
import { createDemoResearcher } from './researcher.js';
import { DEMO_SUMMARY_MODEL_ID } from './summary.js';

export interface DemoAgentOptions {
  /** The model provider (default: the offline demo model). */
  provider?: LLMProvider;
  /** The model id to ask the provider for (default: the provider's own default). */
  model?: string;
  /** Multiplies the tools' built-in delays: 1 (default) for the demo's pace, 0 for instant tests. */
  toolDelayScale?: number;
  /** Where `send_email` puts what it sends (default: a new array, exposed as `agent.outbox`). */
  outbox?: DemoEmail[];
  /** Where the researcher's `save_findings` keeps what it saves (default: a new array, exposed as `agent.library`). */
  library?: DemoSavedFindings[];
  /** Where sessions, checkpoints and approvals live (default: in memory). The demo server passes a SqliteStore. */
  store?: AgentStore;
  /** Where uploaded attachments live (default: none, uploads answer 501). The demo server passes a FileSystemFileStore. */
  files?: FileStore;
  /**
   * MCP servers whose tools the agent also gets. The demo server passes its notes server as `notes`
   * (tools `notes__add_note`, `notes__list_notes`, `notes__search_notes`); in a browser there is none.
   */
  mcpServers?: McpServers;
  /** Where MCP warnings and the servers' stderr go, and the call timeout. */
  mcpOptions?: McpConnectOptions;
  /**
   * The context window in tokens that compaction keeps every request within. Default for the offline
   * demo model: `DEMO_CONTEXT_WINDOW` (small, so a long chat shows the compaction divider); with
   * another provider there is no compaction unless this is given. Compaction prunes old tool results
   * first and, when that is not enough, replaces old turns with a summary (written by the demo model
   * itself, or by the run's model with another provider), so a chat of any length keeps fitting.
   */
  contextWindow?: number;
}

/** `createDemoAgent()`'s options with the coding tools' place given (the demo server's `createDemoCoding()`). */
export interface DemoAgentCodingOptions extends DemoAgentOptions {
  /**
   * Where the coding tools work (default: an in-memory copy of the demo project with scripted
   * commands, which runs in a browser). The demo server passes `createDemoCoding()` from
   * `@lousho/demo-agent/server`: a real copy whose commands run in a `BubblewrapSandbox`.
   */
  coding: DemoCoding;
}

/**
 * The offline demo model's context window: the tools, instructions and sub-agent listing take about
 * 1,500 tokens of it, so a chat of five or six tool turns goes over its 90 % threshold and the older
 * tool results get pruned, and a few turns later the oldest turns get summarized, as they would on
 * a real model hours into a conversation.
 */
export const DEMO_CONTEXT_WINDOW = 3000;

/** The newest tokens of the demo's transcript compaction never prunes (the current turns stay whole). */
const DEMO_PROTECTED_TOKENS = 400;

/** The demo agent, plus the outbox its `send_email` tool writes to and the project its coding tools work on. */
export type DemoAgent<W extends FsProvider = MemoryWorkspace> = Agent & {
  readonly outbox: readonly DemoEmail[];
  readonly workspace: W;
  /** What the coding tools work on, said plainly (`coding.sandbox`, `coding.note`). */
  readonly coding: DemoCoding<W>;
  /** What the `researcher` sub-agent saved. */
  readonly library: readonly DemoSavedFindings[];
};

export const DEMO_AGENT_INSTRUCTIONS = [
  'You are the assistant of the Lousho demo, a small app that shows what an agent toolkit can do.',
  'Tools: get_weather (quick lookup), research_topic (slow, reports progress), send_email (the user must approve every email), ask_question (ask the user and wait for the answer) and local_time (runs in the user\'s browser).',
  'Coding tools (read_file, edit_file, list_dir, shell) work on a tiny in-memory project; a guardrail ends the run on destructive shell commands.',
  'For research in depth, hand the task to the researcher sub-agent with the task tool, then answer from its report.',
  'Call several tools in one turn when a message asks for several things. Base your answer on the tool results and keep it short.',
  'Weather and research results are made up for the demo, and emails only go to an in-memory outbox: say so if asked.',
].join(' ');

export const DEMO_NOTES_INSTRUCTIONS =
  'The notes__ tools come from an MCP server (add_note, list_notes, search_notes): use them when the user asks you to take a note, list notes or search them.';

/** The instructions, saying what the coding tools really work on. */
function codingInstructions(coding: DemoCoding | undefined): string {
  if (coding?.sandbox !== 'bubblewrap') return DEMO_AGENT_INSTRUCTIONS;
  return DEMO_AGENT_INSTRUCTIONS.replace('a tiny in-memory project', 'a real copy of a tiny project, and shell commands run in a bubblewrap sandbox confined to it');
}

/** Creates the demo agent that the demo server and the in-browser demos share. Isomorphic. */
export function createDemoAgent(options?: DemoAgentOptions): DemoAgent;
export function createDemoAgent(options: DemoAgentCodingOptions): DemoAgent<FsProvider>;
export function createDemoAgent(options: DemoAgentOptions & { coding?: DemoCoding } = {}): DemoAgent<FsProvider> {
  const outbox = options.outbox ?? [];
  const coding = createCodingTools(options.coding);
  const library = options.library ?? [];
  const provider = options.provider ?? createDemoModel();
  const contextWindow = options.contextWindow ?? (provider.name === DEMO_PROVIDER_NAME ? DEMO_CONTEXT_WINDOW : undefined);
  const delayScale = options.toolDelayScale ?? 1;
  const researcher = createDemoResearcher({ provider, delayScale, library, ...(options.model !== undefined ? { model: options.model } : {}) });
  const agent = createAgent({
    name: 'lousho-demo',
    description: 'The Lousho demo agent: weather, research (in depth by its researcher sub-agent), email with approval, questions, and coding tools behind a guardrail.',
    provider,
    ...(options.model !== undefined ? { model: options.model } : {}),
    instructions: [codingInstructions(options.coding), ...(options.mcpServers ? [DEMO_NOTES_INSTRUCTIONS] : [])].join(' '),
    tools: [...createDemoTools({ delayScale, outbox }), ...coding.tools],
    subagents: { researcher },
    guardrails: { tool: [demoCommandGuardrail] },
    ...(options.store ? { store: options.store } : {}),
    ...(options.files ? { files: options.files } : {}),
    ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    ...(options.mcpOptions ? { mcpOptions: options.mcpOptions } : {}),
    ...(contextWindow !== undefined
      ? {
          compaction: {
            contextWindow,
            protectedTokens: DEMO_PROTECTED_TOKENS,
            // Pruning alone leaves every question and answer: a long enough chat outgrows any window.
            strategy: twoPhaseStrategy({ model: provider.name === DEMO_PROVIDER_NAME ? DEMO_SUMMARY_MODEL_ID : (options.model ?? provider) }),
          },
        }
      : {}),
  });
  return Object.assign(agent, { outbox: outbox as readonly DemoEmail[], workspace: coding.workspace, coding: coding.coding, library: library as readonly DemoSavedFindings[] });
}
