import { defineTool, throwIfAborted, withArtifacts } from '@lousho/build-ai-agent';
import { z } from 'zod';
import { hashText, slugify } from '../text.js';
import { DEMO_TOOL_NAMES } from './names.js';
import { pause } from '../pause.js';

/** What the model gets from `research_topic`. The sources go to the UI as an artifact only. */
export interface DemoResearch {
  topic: string;
  findings: string[];
  note: string;
}

/** One entry of the `sources` artifact. */
export interface DemoSource {
  title: string;
  url: string;
}

/** What `tool.progress` carries while the research runs. */
export interface DemoResearchProgress {
  step: number;
  total: number;
  message: string;
}

/** The whole research at delay scale 1, in ms. */
export const RESEARCH_TOTAL_MS = 3000;

export const RESEARCH_NOTE = 'These findings are illustrative: the offline demo writes them itself, no web search happened.';

const FINDINGS: readonly ((topic: string) => string)[] = [
  (t) => `Most sources agree on the basic facts about ${t} and place it clearly in the wider picture.`,
  (t) => `Where the sources disagree, it is about details and emphasis rather than the core of ${t}.`,
  (t) => `Three themes keep coming back around ${t}: where it started, its turning points, and what it changed for ordinary people.`,
  (t) => `Concrete case studies explain ${t} better than broad overviews do.`,
  (t) => `Critics note that much of what is written about ${t} repeats a few well-known sources.`,
  (t) => `Recent writing on ${t} pays more attention to practical effects than to theory.`,
];

const STEPS: readonly ((topic: string) => string)[] = [
  (t) => `Searching for sources on ${t}`,
  () => 'Reading 3 sources',
  () => 'Comparing what the sources say',
  () => 'Writing up the findings',
];

/** Three or four findings, chosen from the topic so the same topic always gives the same ones. */
export function demoFindingsFor(topic: string): string[] {
  const hash = hashText(topic.toLowerCase());
  const count = 3 + (hash % 2);
  const start = (hash >>> 4) % FINDINGS.length;
  return Array.from({ length: count }, (_, i) => (FINDINGS[(start + i) % FINDINGS.length] as (t: string) => string)(topic));
}

export function demoSourcesFor(topic: string): DemoSource[] {
  const slug = slugify(topic);
  return [
    { title: `An introduction to ${topic}`, url: `https://example.org/encyclopedia/${slug}` },
    { title: `${topic}: where things stand`, url: `https://news.example.com/analysis/${slug}` },
    { title: `A review of studies on ${topic}`, url: `https://journal.example.net/reviews/${slug}` },
  ];
}

export function createResearchTool(options: { delayScale?: number } = {}) {
  const stepMs = (RESEARCH_TOTAL_MS * (options.delayScale ?? 1)) / STEPS.length;
  return defineTool({
    name: DEMO_TOOL_NAMES.research,
    displayName: 'Research',
    description:
      'Research a topic and return 3-4 short findings (slow: takes a few seconds and reports its progress). The demo writes illustrative findings itself; it does not search the web.',
    input: z.object({
      topic: z.string().trim().min(1, 'topic must not be empty').max(200).describe('What to research, e.g. "solar power in Europe".'),
    }),
    async execute({ topic }, ctx) {
      for (const [index, describe] of STEPS.entries()) {
        // Checked before each step too, so a stopped run never reports more progress.
        throwIfAborted(ctx.abortSignal);
        const progress: DemoResearchProgress = { step: index + 1, total: STEPS.length, message: describe(topic) };
        ctx.reportProgress?.(progress);
        await pause(stepMs, ctx.abortSignal);
      }
      const result: DemoResearch = { topic, findings: demoFindingsFor(topic), note: RESEARCH_NOTE };
      return withArtifacts(result, { type: 'sources', title: `Sources on ${topic}`, data: demoSourcesFor(topic) });
    },
  });
}
