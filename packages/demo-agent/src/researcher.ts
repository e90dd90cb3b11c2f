import { createAgent, type Agent, type LLMProvider } from '@lousho/build-ai-agent';
import { createResearchTool } from './tools/research.js';
import { createSaveFindingsTool, type DemoSavedFindings } from './tools/findings.js';
import { DEMO_RESEARCHER_NAME } from './tools/names.js';

export const DEMO_RESEARCHER_DESCRIPTION = 'Researches a topic in depth: looks it up, saves the findings (with your approval) and reports them.';

export const DEMO_RESEARCHER_INSTRUCTIONS = [
  'You are the researcher of the Lousho demo. You get one task from the lead agent and nothing else of the conversation.',
  'Look the topic up with research_topic, then save what you found with save_findings (the user approves every save), then report the findings.',
].join(' ');

export interface DemoResearcherOptions {
  provider: LLMProvider;
  model?: string;
  delayScale: number;
  /** Where `save_findings` keeps what it saves. */
  library: DemoSavedFindings[];
}

/** The `researcher` sub-agent the demo agent delegates in-depth research to. */
export function createDemoResearcher(options: DemoResearcherOptions): Agent {
  return createAgent({
    name: DEMO_RESEARCHER_NAME,
    description: DEMO_RESEARCHER_DESCRIPTION,
    provider: options.provider,
    ...(options.model !== undefined ? { model: options.model } : {}),
    instructions: DEMO_RESEARCHER_INSTRUCTIONS,
    tools: [createResearchTool({ delayScale: options.delayScale }), createSaveFindingsTool({ delayScale: options.delayScale, library: options.library })],
  });
}
