import { defineTool } from '@lousho/build-ai-agent';
import { z } from 'zod';
import { hashText } from '../text.js';
import { DEMO_RESEARCHER_TOOL_NAMES } from './names.js';
import { pause } from '../pause.js';

/** A set of findings the researcher saved (only to an in-memory library, like the demo's outbox). */
export interface DemoSavedFindings {
  id: string;
  topic: string;
  findings: string[];
}

/** What `save_findings` returns to the model. */
export interface DemoSaveReceipt {
  id: string;
  topic: string;
  saved: number;
}

/** How long saving takes at delay scale 1, in ms. */
export const SAVE_FINDINGS_MS = 200;

/** The researcher's `save_findings`: keeps findings in the research library, after the user approves. */
export function createSaveFindingsTool(options: { delayScale?: number; library?: DemoSavedFindings[] } = {}) {
  const delayMs = SAVE_FINDINGS_MS * (options.delayScale ?? 1);
  const library = options.library ?? [];
  return defineTool({
    name: DEMO_RESEARCHER_TOOL_NAMES.save,
    displayName: 'Save findings',
    description: 'Save research findings to the team research library. Waits for the user to approve it. In the demo the library is in memory.',
    input: z.object({
      topic: z.string().trim().min(1, 'topic must not be empty').max(200).describe('What the findings are about.'),
      findings: z.array(z.string().trim().min(1).max(500)).min(1, 'save at least one finding').max(10).describe('The findings, one sentence each.'),
    }),
    needsApproval: true,
    async execute({ topic, findings }, ctx): Promise<DemoSaveReceipt> {
      await pause(delayMs, ctx.abortSignal);
      // Deterministic ids: the n-th entry of a library, plus a short hash of what it holds.
      const id = `lib_${String(library.length + 1).padStart(4, '0')}_${hashText(`${topic}\n${findings.join('\n')}`).toString(36)}`;
      library.push({ id, topic, findings: [...findings] });
      return { id, topic, saved: findings.length };
    },
  });
}
