import { SUMMARY_HEADING } from '@lousho/build-ai-agent';

/*
 * How the offline demo model writes the summary that compaction asks for once pruning old tool
 * results is not enough. It reads the conversation as the summarizer gets it (one line per message,
 * "User: ...", "Assistant: ...", "Assistant called tool(args)", "Tool result (tool): ...") and keeps,
 * for the newest exchanges, what was asked, which tools ran and the start of the answer. Older
 * exchanges are only counted, so the summary stays the same size however long the chat gets.
 */

/** The model id that makes the demo model summarize (`twoPhaseStrategy({ model: DEMO_SUMMARY_MODEL_ID })`). */
export const DEMO_SUMMARY_MODEL_ID = 'lousho-demo-summary';

/** The newest exchanges a summary describes one by one. */
const KEPT_EXCHANGES = 4;
const QUOTE_CHARS = 90;

const COUNT_LINE = /^The user made (\d+) requests? before this point\b/;

interface Exchange {
  request: string;
  tools: string[];
  answer: string;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS - 1).trimEnd()}…` : flat;
}

function describe(exchange: Exchange): string {
  const tools = [...new Set(exchange.tools)];
  const used = tools.length > 0 ? ` (tools: ${tools.join(', ')})` : '';
  const answer = exchange.answer ? ` → "${quote(exchange.answer)}"` : '';
  return `- Asked "${quote(exchange.request)}"${used}${answer}`;
}

/** What the earlier summary said: how many requests it covered, and its lines about the newest ones. */
function readEarlierSummary(lines: readonly string[]): { count: number; described: string[] } {
  let count = 0;
  const described: string[] = [];
  for (const line of lines) {
    const counted = COUNT_LINE.exec(line);
    if (counted) count = Number(counted[1]);
    else if (line.startsWith('- ')) described.push(line);
  }
  return { count: Math.max(count, described.length), described };
}

/** The summary the demo model writes for `conversation` (the summarizer's rendering of the old messages). */
export function summarizeConversation(conversation: string): string {
  const exchanges: Exchange[] = [];
  let earlier: string[] | undefined;
  /** Which message a line without a known prefix continues (messages may span lines). */
  let current: 'user' | 'assistant' | 'summary' | 'other' = 'other';
  for (const line of conversation.split('\n')) {
    if (line.startsWith('User: ')) {
      const text = line.slice('User: '.length);
      if (text.startsWith(SUMMARY_HEADING)) {
        earlier = [];
        current = 'summary';
      } else {
        exchanges.push({ request: text, tools: [], answer: '' });
        current = 'user';
      }
    } else if (line.startsWith('Assistant called ')) {
      exchanges.at(-1)?.tools.push(line.slice('Assistant called '.length).split('(')[0]!);
      current = 'other';
    } else if (line.startsWith('Assistant: ')) {
      const last = exchanges.at(-1);
      // The last thing the assistant said in an exchange is its answer (before any request: nothing to keep).
      if (last) last.answer = line.slice('Assistant: '.length);
      current = last ? 'assistant' : 'other';
    } else if (/^(?:Tool result|System)[ (:]/.test(line)) {
      current = 'other';
    } else if (current === 'summary') {
      earlier!.push(line);
    } else if (current === 'user') {
      exchanges.at(-1)!.request += ` ${line}`;
    } else if (current === 'assistant') {
      exchanges.at(-1)!.answer += ` ${line}`;
    }
  }

  const before = readEarlierSummary(earlier ?? []);
  const total = before.count + exchanges.length;
  if (total === 0) return 'Nothing to summarize: the earlier conversation had no requests.';
  const described = [...before.described, ...exchanges.map(describe)].slice(-KEPT_EXCHANGES);
  const heading = `The user made ${total} request${total === 1 ? '' : 's'} before this point${total > described.length ? `; the newest ${described.length}:` : ':'}`;
  return [heading, ...described].join('\n');
}
