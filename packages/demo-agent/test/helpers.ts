import { generateFromStream, type AgentStreamEvent, type Message, type StreamChunk, type ToolSpec } from '@lousho/build-ai-agent';
import { createDemoAgent, createDemoModel, DEMO_TOOL_NAMES, type DemoAgentOptions } from '../src/index.js';

/** Tool specs as the agent offers them: only the names matter to the demo model. */
export const ALL_TOOLS: ToolSpec[] = Object.values(DEMO_TOOL_NAMES).map((name) => ({ name, description: name, parameters: { type: 'object' } }));

export const user = (content: string): Message => ({ role: 'user', content });

/** One model turn, assembled. */
export function turn(messages: Message[], tools: ToolSpec[] | null = ALL_TOOLS) {
  return generateFromStream(createDemoModel({ charDelayMs: 0 }), { messages, ...(tools ? { tools } : {}) });
}

export async function chunksOf(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

export async function eventsOf(run: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

export function ofType<T extends AgentStreamEvent['type']>(events: AgentStreamEvent[], type: T): Extract<AgentStreamEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AgentStreamEvent, { type: T }> => e.type === type);
}

/** A demo agent with no delays anywhere. */
export function fastAgent(options: DemoAgentOptions = {}) {
  return createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }), toolDelayScale: 0, ...options });
}
