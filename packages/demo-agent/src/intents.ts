import { DEFAULT_CITY, findKnownCities, placeAfterPreposition } from './cities.js';
import { codingCall } from './coding/intents.js';
import { noteCall } from './note-intents.js';
import { DEMO_RESEARCHER_NAME, DEMO_TASK_TOOL, DEMO_TOOL_NAMES } from './tools/names.js';
import type { PlannedCall } from './planned-call.js';

export type { PlannedCall } from './planned-call.js';

/*
 * How the demo model reads a user message: plain keyword rules, checked in a fixed order, so the
 * same words always lead to the same reply. No understanding is involved, and the replies say so.
 */

export type UserIntent =
  /** "simulate error": the model call fails on purpose. */
  | { kind: 'fail' }
  /** "echo <text>": reply with exactly the text. */
  | { kind: 'echo'; text: string }
  /** The message contains HTML: quote it back verbatim (UIs must render it as text). */
  | { kind: 'html'; text: string }
  /** One or more tool calls for this turn, in the order the message asked for them. */
  | { kind: 'tools'; calls: PlannedCall[] }
  /** Nothing the model recognises: a friendly reply saying what it can do. */
  | { kind: 'chat'; text: string };

export const DEFAULT_RESEARCH_TOPIC = 'renewable energy';
export const DEFAULT_EMAIL_TO = 'team@example.com';
export const DEFAULT_EMAIL_SUBJECT = 'Hello from the Lousho demo';
export const DEFAULT_EMAIL_BODY = 'Hi,\n\nThis is a test message from the Lousho demo agent, sent after you approved it.\n\nBest regards,\nThe Lousho demo';

export const TRIP_QUESTION = { question: 'Where would you like to go?', options: ['Lisbon', 'Tokyo', 'New York'] };
export const DECISION_QUESTION = { question: 'What matters most to you in this decision?', options: ['Price', 'Quality', 'Speed'] };
export const GENERAL_QUESTION = {
  question: 'What would you like to try next?',
  options: ['Check the weather', 'Research a topic', 'Send an email'],
};

const FAIL = /\bsimulate(?:d)?\s+(?:an?\s+)?error\b/i;
const ECHO = /^\s*(?:please\s+)?echo\b:?[ \t]?/i;
const HTML = /<\/?[a-z][^>]*>|<!--/i;
const WEATHER = /\b(?:weather|temperatures?|forecast|how\s+(?:hot|cold|warm)|raining|sunny)\b/i;
/** "Research X in depth" goes to the researcher sub-agent when the agent has one. */
const IN_DEPTH = /\bin[\s-]+depth\b/i;
const RESEARCH = /\b(?:research\w*|analy[sz]\w*|report)\b/i;
const EMAIL = /\b(?:e-?mails?|mail|send)\b/i;
const QUESTION = /\b(?:ask\s+me|questions?|help\s+me\s+decide|plan\s+a\s+trip)\b/i;
const LOCAL_TIME = /\b(?:time\s*zone|local\s+time|what\s+time\s+is\s+it)\b/i;
const EMAIL_ADDRESS = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/i;

/** Reads the latest user message; `offered` are the tools the agent has (the delegation needs `task`). */
export function readUserIntent(text: string, offered: ReadonlySet<string> = new Set()): UserIntent {
  if (FAIL.test(text)) return { kind: 'fail' };
  const echo = ECHO.exec(text);
  if (echo) return { kind: 'echo', text: text.slice(echo.index + echo[0].length) };
  if (HTML.test(text)) return { kind: 'html', text };
  const calls = plannedCalls(text, offered);
  return calls.length > 0 ? { kind: 'tools', calls } : { kind: 'chat', text };
}

function plannedCalls(text: string, offered: ReadonlySet<string>): PlannedCall[] {
  const note = noteCall(text);
  if (note) return [note];
  const coding = codingCall(text);
  if (coding) return [coding];
  const found: { index: number; calls: PlannedCall[] }[] = [];
  const weather = WEATHER.exec(text);
  if (weather) found.push({ index: weather.index, calls: weatherCities(text).map((city) => ({ name: DEMO_TOOL_NAMES.weather, args: { city } })) });
  const research = researchKeyword(text);
  if (research) found.push({ index: research.index, calls: [researchCall(researchTopic(text, research), IN_DEPTH.test(text) && offered.has(DEMO_TASK_TOOL))] });
  const email = EMAIL.exec(text);
  if (email) found.push({ index: email.index, calls: [{ name: DEMO_TOOL_NAMES.email, args: emailArgs(text, research ? researchTopic(text, research) : undefined) }] });
  const question = QUESTION.exec(text);
  if (question) found.push({ index: question.index, calls: [{ name: DEMO_TOOL_NAMES.question, args: questionArgs(text) }] });
  const localTime = LOCAL_TIME.exec(text);
  if (localTime) found.push({ index: localTime.index, calls: [{ name: DEMO_TOOL_NAMES.localTime, args: {} }] });
  // Calls follow the order the message asked for things in.
  return found.sort((a, b) => a.index - b.index).flatMap((entry) => entry.calls);
}

/** The prompt the lead gives the researcher: the topic alone, since a sub-agent sees nothing else of the chat. */
export function delegatedResearchPrompt(topic: string): string {
  return `Research ${topic} in depth, then save the findings.`;
}

function researchCall(topic: string, delegate: boolean): PlannedCall {
  if (!delegate) return { name: DEMO_TOOL_NAMES.research, args: { topic } };
  return { name: DEMO_TASK_TOOL, args: { subagent: DEMO_RESEARCHER_NAME, prompt: delegatedResearchPrompt(topic) } };
}

function weatherCities(text: string): string[] {
  const known = findKnownCities(text);
  if (known.length > 0) return known;
  return [placeAfterPreposition(text) ?? DEFAULT_CITY];
}

/** "research", "analyse"/"analyze"/"analysis", or "report" — but not "weather report". */
function researchKeyword(text: string): RegExpExecArray | undefined {
  const pattern = new RegExp(RESEARCH.source, 'gi');
  for (const match of text.matchAll(pattern)) {
    const before = text.slice(0, match.index).trimEnd().toLowerCase();
    if (match[0].toLowerCase() === 'report' && /(?:weather|forecast)$/.test(before)) continue;
    return match as RegExpExecArray;
  }
  return undefined;
}

/** What follows the research keyword, up to the end of the clause. */
function researchTopic(text: string, keyword: RegExpExecArray): string {
  let rest = text.slice(keyword.index + keyword[0].length);
  rest = rest.replace(/^\s*(?:(?:on|about|of|into|for|the\s+topic\s+of|me|a|an)\s+)*/i, '');
  rest = rest.split(/[.?!;:\n]|,\s*(?:and|then)\b|\s+(?:and\s+)?then\s+|\s+and\s+(?=(?:send|e-?mail|mail|ask|tell|check|what|get|look|show)\b)/i)[0] ?? '';
  const topic = rest.replace(IN_DEPTH, ' ').trim().replace(/\s+/g, ' ').slice(0, 120).trim();
  return topic || DEFAULT_RESEARCH_TOPIC;
}

function emailArgs(text: string, researchTopic: string | undefined): { to: string; subject: string; body: string } {
  const to = EMAIL_ADDRESS.exec(text)?.[0] ?? DEFAULT_EMAIL_TO;
  let subject = /\b(?:about|subject:?|regarding|re:)\s+(.+?)(?=[.,?!;\n"“]|\s+(?:and|saying|that\s+says|to)\b|$)/i.exec(text)?.[1]?.trim();
  if (subject && /^(?:it|this|that|them|the\s+results?|the\s+findings)$/i.test(subject)) subject = undefined;
  if (!subject && researchTopic) subject = `Research: ${researchTopic}`;
  const quoted = /["“]([^"”]+)["”]/.exec(text)?.[1];
  const saying = /\b(?:saying|that\s+says|with\s+the\s+message)\s+(.+)$/i.exec(text)?.[1];
  const body = (quoted ?? saying)?.trim();
  return { to, subject: (subject ?? DEFAULT_EMAIL_SUBJECT).slice(0, 200), body: body || DEFAULT_EMAIL_BODY };
}

function questionArgs(text: string): { question: string; options: string[] } {
  const args = /\bplan\s+a\s+trip\b/i.test(text) ? TRIP_QUESTION : /\bhelp\s+me\s+decide\b/i.test(text) ? DECISION_QUESTION : GENERAL_QUESTION;
  return { question: args.question, options: [...args.options] };
}
