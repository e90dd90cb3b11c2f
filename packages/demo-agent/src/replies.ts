import { DEMO_CODING_TOOL_NAMES, DEMO_NOTES_TOOL_NAMES, DEMO_TASK_TOOL, DEMO_TOOL_NAMES } from './tools/names.js';

/** The demo model's reply to a message it has no rule for: who it is and what it can do. */
export function chatReply(text: string, offered: ReadonlySet<string>): string {
  const opening = /^\s*(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))\b/i.test(text)
    ? 'Hello! '
    : /\bthanks?\b|\bthank\s+you\b/i.test(text)
      ? "You're welcome! "
      : '';
  return `${opening}${introduction()}\n\n${capabilities(offered)}`;
}

/** The reply when the message asked for tools this agent does not have. */
export function missingToolsReply(names: readonly string[], offered: ReadonlySet<string>): string {
  return `I would use ${names.join(' and ')} for that, but this agent does not give me ${names.length === 1 ? 'that tool' : 'those tools'}.\n\n${capabilities(offered)}`;
}

export function echoReply(text: string): string {
  return text.length > 0 ? text : 'Nothing to echo: write some text after "echo", e.g. echo hello.';
}

/** Quotes HTML back exactly as written, on purpose: the demo UIs must show it as text. */
export function htmlReply(text: string): string {
  return `Your message contains HTML. Here it is back, exactly as you wrote it:\n\n${text}\n\nIf you see the tags as plain text (no image, no alert), this UI renders model text safely.`;
}

function introduction(): string {
  return "I'm the offline demo model: I run without an API key and pick tools from keywords in your message, so I only understand a few kinds of requests.";
}

function capabilities(offered: ReadonlySet<string>): string {
  const lines = [
    offered.has(DEMO_TOOL_NAMES.weather) ? `- "What's the weather in Tokyo?": a quick lookup` : undefined,
    offered.has(DEMO_TOOL_NAMES.research) ? '- "Research the history of tea": a slow tool that shows its progress' : undefined,
    offered.has(DEMO_TASK_TOOL) ? '- "Research solar power in depth": I hand it to my researcher sub-agent and you watch it work' : undefined,
    offered.has(DEMO_TOOL_NAMES.email) ? '- "Send an email to sam@example.com": waits for your approval' : undefined,
    offered.has(DEMO_TOOL_NAMES.question) ? '- "Help me plan a trip": I ask you a question' : undefined,
    offered.has(DEMO_TOOL_NAMES.localTime) ? '- "What is my time zone?": a tool that runs in your browser' : undefined,
    offered.has(DEMO_NOTES_TOOL_NAMES.add) ? '- "Take a note: call the bike shop on Monday", "List my notes", "Search my notes for bike": tools from an MCP server' : undefined,
    offered.has(DEMO_CODING_TOOL_NAMES.shell) ? '- "Read greet.js", "Run the tests", "Fix the typo", "Delete everything": coding tools on a tiny in-memory project (a guardrail stops the last one)' : undefined,
    '- "echo <any text>": I repeat the text exactly',
    '- "simulate error": I fail on purpose',
  ].filter((line): line is string => line !== undefined);
  return `Try one of these:\n${lines.join('\n')}`;
}
