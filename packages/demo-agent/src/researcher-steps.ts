import { latestFinishedCalls } from './results.js';
import type { DemoReply } from './planned-call.js';
import { isRecord, parseJson } from './text.js';
import { DEMO_RESEARCHER_TOOL_NAMES, DEMO_TOOL_NAMES } from './tools/names.js';

/*
 * The researcher's second turn: once `research_topic` is back, an agent that can save findings
 * saves them (a call that needs approval) before it reports. Every other agent answers at once.
 */

/** The save call that follows a successful research, or undefined when the model should answer. */
export function saveAfterResearch(messages: Parameters<typeof latestFinishedCalls>[0], offered: ReadonlySet<string>): DemoReply | undefined {
  if (!offered.has(DEMO_RESEARCHER_TOOL_NAMES.save)) return undefined;
  const finished = latestFinishedCalls(messages);
  const research = finished.find((entry) => entry.call.name === DEMO_TOOL_NAMES.research && !entry.isError);
  if (!research || finished.length !== 1) return undefined;
  const result = parseJson(research.content);
  if (!isRecord(result) || typeof result.topic !== 'string' || !Array.isArray(result.findings)) return undefined;
  const findings = result.findings.filter((f): f is string => typeof f === 'string');
  if (findings.length === 0) return undefined;
  return {
    text: `I found ${findings.length} findings on ${result.topic}. I'll save them to the research library, which waits for your approval.`,
    calls: [{ name: DEMO_RESEARCHER_TOOL_NAMES.save, args: { topic: result.topic, findings } }],
  };
}
