import type { PlannedCall } from './planned-call.js';
import { DEMO_NOTES_TOOL_NAMES } from './tools/names.js';

/*
 * Notes requests for the demo's MCP notes server. A note swallows the rest of the message ("take a
 * note: email Sam on Friday" is one note, not an email), so these are read before the other tools.
 */

const ADD = /^\s*(?:please\s+)?(?:take\s+(?:a\s+)?note|make\s+a\s+note|note\s+(?:down|that)|write\s+down|remember\s+that|add\s+(?:a\s+)?note)\b\s*(?:that\b)?[:,-]?\s*/i;
const LIST = /\b(?:(?:list|show)(?:\s+me)?(?:\s+(?:all|my|the))*\s+notes|what\s+are\s+my\s+notes|my\s+notes\s*\??\s*$)/i;
const SEARCH = /\b(?:search|find|look\s+up)\s+(?:(?:in|through)\s+)?(?:my\s+|the\s+)?notes?\s+(?:for|about|with|on)\s+(.+)$/i;

/** The notes call a message asks for, if any. */
export function noteCall(text: string): PlannedCall | undefined {
  const add = ADD.exec(text);
  if (add) {
    const note = text.slice(add[0].length).trim().replace(/^["“](.*)["”]$/s, '$1').slice(0, 500);
    if (note) return { name: DEMO_NOTES_TOOL_NAMES.add, args: { text: note } };
  }
  const search = SEARCH.exec(text);
  if (search) {
    const query = search[1]!.trim().replace(/[.?!]+$/, '').replace(/^["“](.*)["”]$/, '$1').slice(0, 200);
    if (query) return { name: DEMO_NOTES_TOOL_NAMES.search, args: { query } };
  }
  if (LIST.test(text)) return { name: DEMO_NOTES_TOOL_NAMES.list, args: {} };
  return undefined;
}
