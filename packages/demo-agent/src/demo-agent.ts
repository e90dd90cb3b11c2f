import { createAgent, type Agent, type AgentStore, type LLMProvider, type McpConnectOptions, type McpServers } from '@lousho/build-ai-agent';
import { createDemoModel } from './demo-model.js';
import { DEMO_PROVIDER_NAME } from './notice.js';
import { createCodingTools, demoCommandGuardrail } from './coding/tools.js';
import type { MemoryWorkspace } from '@lousho/build-ai-agent';
import { createDemoTools, type DemoEmail } from './tools/index.js';

export interface DemoAgentOptions {
  /** The model provider (default: the offline demo model). */
  provider?: LLMProvider;
  /** The model id to ask the provider for (default: the provider's own default). */
  model?: string;
  /** Multiplies the tools' built-in delays: 1 (default) for the demo's pace, 0 for instant tests. */
  toolDelayScale?: number;
  /** Where `send_email` puts what it sends (default: a new array, exposed as `agent.outbox`). */
  outbox?: DemoEmail[];
  /** Where sessions, checkpoints and approvals live (default: in memory). The demo server passes a SqliteStore. */
  store?: AgentStore;
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
   * another provider there is no compaction unless this is given.
   */
  contextWindow?: number;
}

/**
 * The offline demo model's context window: the tools and instructions take about 1,400 tokens of it,
 * so a chat of five or six tool turns goes over its 90 % threshold and the older tool results get
 * pruned, as they would on a real model hours into a conversation.
 */
export const DEMO_CONTEXT_WINDOW = 3000;

/** The newest tokens of the demo's transcript compaction never prunes (the current turns stay whole). */
const DEMO_PROTECTED_TOKENS = 400;

/** The demo agent, plus the outbox its `send_email` tool writes to and the project its coding tools work on. */
export type DemoAgent = Agent & { readonly outbox: readonly DemoEmail[]; readonly workspace: MemoryWorkspace };

export const DEMO_AGENT_INSTRUCTIONS = [
  'You are the assistant of the Lousho demo, a small app that shows what an agent toolkit can do.',
  'Tools: get_weather (quick lookup), research_topic (slow, reports progress), send_email (the user must approve every email) and ask_question (ask the user and wait for the answer).',
  'Coding tools (read_file, edit_file, list_dir, shell) work on a tiny in-memory project; a guardrail ends the run on destructive shell commands.',
  'Call several tools in one turn when a message asks for several things. Base your answer on the tool results and keep it short.',
  'Weather and research results are made up for the demo, and emails only go to an in-memory outbox: say so if asked.',
].join(' ');

export const DEMO_NOTES_INSTRUCTIONS =
  'The notes__ tools come from an MCP server (add_note, list_notes, search_notes): use them when the user asks you to take a note, list notes or search them.';

/** Creates the demo agent that the demo server and the in-browser demos share. Isomorphic. */
export function createDemoAgent(options: DemoAgentOptions = {}): DemoAgent {
  const outbox = options.outbox ?? [];
  const coding = createCodingTools();
  const provider = options.provider ?? createDemoModel();
  const contextWindow = options.contextWindow ?? (provider.name === DEMO_PROVIDER_NAME ? DEMO_CONTEXT_WINDOW : undefined);
  const agent = createAgent({
    name: 'lousho-demo',
    description: 'The Lousho demo agent: weather, research, email with approval, questions, and coding tools behind a guardrail.',
    provider,
    ...(options.model !== undefined ? { model: options.model } : {}),
    instructions: options.mcpServers ? `${DEMO_AGENT_INSTRUCTIONS} ${DEMO_NOTES_INSTRUCTIONS}` : DEMO_AGENT_INSTRUCTIONS,
    tools: [...createDemoTools({ delayScale: options.toolDelayScale ?? 1, outbox }), ...coding.tools],
    guardrails: { tool: [demoCommandGuardrail] },
    ...(options.store ? { store: options.store } : {}),
    ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    ...(options.mcpOptions ? { mcpOptions: options.mcpOptions } : {}),
    ...(contextWindow !== undefined ? { compaction: { contextWindow, protectedTokens: DEMO_PROTECTED_TOKENS } } : {}),
  });
  return Object.assign(agent, { outbox: outbox as readonly DemoEmail[], workspace: coding.workspace });
}
