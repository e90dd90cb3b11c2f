import { askQuestionTool, ERROR_CODES, SDKError } from '@lousho/build-ai-agent';
import { createEmailTool, type DemoEmail } from './email.js';
import { createResearchTool } from './research.js';
import { createWeatherTool } from './weather.js';
import { createLocalTimeTool } from './local-time.js';

export {
  DEMO_CODING_TOOL_NAMES,
  DEMO_NOTES_TOOL_NAMES,
  DEMO_RESEARCHER_NAME,
  DEMO_RESEARCHER_TOOL_NAMES,
  DEMO_TASK_TOOL,
  DEMO_TOOL_NAMES,
  type DemoToolName,
} from './names.js';
export { createSaveFindingsTool, SAVE_FINDINGS_MS, type DemoSaveReceipt, type DemoSavedFindings } from './findings.js';
export { createWeatherTool, demoWeatherFor, WEATHER_LOOKUP_MS, type DemoWeather } from './weather.js';
export {
  createResearchTool,
  demoFindingsFor,
  demoSourcesFor,
  RESEARCH_NOTE,
  RESEARCH_TOTAL_MS,
  type DemoResearch,
  type DemoResearchProgress,
  type DemoSource,
} from './research.js';
export { createEmailTool, EMAIL_SEND_MS, type DemoEmail, type DemoEmailReceipt } from './email.js';
export { createLocalTimeTool, demoBrowserTools, type DemoLocalTime } from './local-time.js';

export interface DemoToolsOptions {
  /** Multiplies every tool's built-in delay: 1 (default) for the demo's pace, 0 for instant tests. */
  delayScale?: number;
  /** Where `send_email` puts what it sends (default: a new array). */
  outbox?: DemoEmail[];
}

/** The demo's five tools: weather (quick), research (slow, with progress), email (needs approval), ask_question, local_time (runs in the browser). */
export function createDemoTools(options: DemoToolsOptions = {}) {
  const delayScale = options.delayScale ?? 1;
  if (!Number.isFinite(delayScale) || delayScale < 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `delayScale must be a finite number >= 0, got ${String(delayScale)}.`, {
      hint: 'Use 1 for the demo pace, 0 for instant tools (tests), or e.g. 0.1 for a quick demo.',
    });
  }
  return [
    createWeatherTool({ delayScale }),
    createResearchTool({ delayScale }),
    createEmailTool({ delayScale, ...(options.outbox ? { outbox: options.outbox } : {}) }),
    askQuestionTool(),
    createLocalTimeTool(),
  ] as const;
}

export type DemoTools = ReturnType<typeof createDemoTools>;
