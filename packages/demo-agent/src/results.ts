import { textOf, type Message, type ToolCall } from '@lousho/build-ai-agent';
import { DECISION_QUESTION, TRIP_QUESTION } from './intents.js';
import { isRecord, listJoin, parseJson } from './text.js';
import { DEMO_CODING_TOOL_NAMES, DEMO_NOTES_TOOL_NAMES, DEMO_RESEARCHER_TOOL_NAMES, DEMO_TASK_TOOL, DEMO_TOOL_NAMES } from './tools/names.js';

/*
 * How the demo model writes its answer once tool results are back: one short paragraph per call,
 * built only from what the results say (and the call's own arguments), in the order of the calls.
 */

export interface FinishedCall {
  call: ToolCall;
  args: Record<string, unknown>;
  /** The tool message's text: JSON for most tools, the plain answer for `ask_question`. */
  content: string;
  isError: boolean;
}

/** The calls of the latest assistant turn that made calls, with their results. */
export function latestFinishedCalls(messages: readonly Message[]): FinishedCall[] {
  let turn = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
      turn = i;
      break;
    }
  }
  if (turn < 0) return [];
  const results = new Map<string, Message>();
  for (const message of messages.slice(turn + 1)) {
    if (message.role === 'tool' && message.toolCallId) results.set(message.toolCallId, message);
  }
  const finished: FinishedCall[] = [];
  for (const call of messages[turn]?.toolCalls ?? []) {
    const result = results.get(call.id);
    if (!result) continue;
    const args = parseJson(call.arguments);
    finished.push({ call, args: isRecord(args) ? args : {}, content: textOf(result), isError: result.isError === true });
  }
  return finished;
}

/** The answer written from the results of the latest tool calls. */
export function answerFromResults(messages: readonly Message[]): string {
  const finished = latestFinishedCalls(messages);
  if (finished.length === 0) return 'I have no tool results to report on.';
  // Consecutive results of the same tool share a paragraph (e.g. the weather in several cities).
  const paragraphs: string[] = [];
  let previous: string | undefined;
  for (const entry of finished) {
    const sentence = describeResult(entry);
    if (previous === entry.call.name && paragraphs.length > 0) paragraphs[paragraphs.length - 1] += `\n${sentence}`;
    else paragraphs.push(sentence);
    previous = entry.call.name;
  }
  return paragraphs.join('\n\n');
}

function describeResult(entry: FinishedCall): string {
  // Saved or not, the researcher reports what it found.
  if (entry.call.name === DEMO_RESEARCHER_TOOL_NAMES.save) return describeSavedFindings(entry);
  if (entry.isError) return describeError(entry);
  switch (entry.call.name) {
    case DEMO_TOOL_NAMES.weather:
      return describeWeather(entry);
    case DEMO_TOOL_NAMES.research:
      return describeResearch(entry);
    case DEMO_TOOL_NAMES.email:
      return describeEmail(entry);
    case DEMO_TOOL_NAMES.question:
      return describeAnswer(entry);
    case DEMO_TOOL_NAMES.localTime:
      return describeLocalTime(entry);
    case DEMO_TASK_TOOL:
      return describeDelegation(entry);
    case DEMO_NOTES_TOOL_NAMES.add:
    case DEMO_NOTES_TOOL_NAMES.list:
    case DEMO_NOTES_TOOL_NAMES.search:
      return describeNotes(entry);
    case DEMO_CODING_TOOL_NAMES.read:
    case DEMO_CODING_TOOL_NAMES.edit:
    case DEMO_CODING_TOOL_NAMES.list:
    case DEMO_CODING_TOOL_NAMES.shell:
      return describeCoding(entry);
    default:
      return `${entry.call.name} returned: ${shorten(entry.content, 300)}`;
  }
}

/** `local_time`: what the user's browser sent (already checked against the tool's schema on the server). */
function describeLocalTime({ content }: FinishedCall): string {
  const result = parseJson(content);
  if (!isRecord(result)) return `Your browser answered: ${shorten(content, 200)}`;
  return `Your browser says your time zone is ${String(result.timeZone)}, and it is ${String(result.localTime)} there. (The page ran this tool, not the server.)`;
}

/** The coding tools' results (`read_file`, `edit_file`, `list_dir`, `shell`) over the demo project. */
function describeCoding({ call, content }: FinishedCall): string {
  const result = parseJson(content);
  if (!isRecord(result)) return `${call.name} returned: ${shorten(content, 300)}`;
  switch (call.name) {
    case DEMO_CODING_TOOL_NAMES.read:
      return `Here is ${String(result.path)} (${String(result.totalLines)} lines):\n\n${String(result.content)}`;
    case DEMO_CODING_TOOL_NAMES.edit:
      return `I fixed the typo in ${String(result.path)} (line ${String(result.line)}). Ask me to "run the tests" to check it.`;
    case DEMO_CODING_TOOL_NAMES.list: {
      const entries = Array.isArray(result.entries) ? result.entries.filter(isRecord) : [];
      return `The project holds: ${entries.map((e) => (e.type === 'directory' ? `${String(e.name)}/` : String(e.name))).join(', ')}.`;
    }
    default: {
      const output = `${String(result.stdout ?? '')}${String(result.stderr ?? '')}`.trim();
      const verdict = result.exitCode === 0 ? 'It passed' : `It failed (exit code ${String(result.exitCode)})`;
      return `${verdict}:\n\n${shorten(output, 600)}${result.exitCode === 0 ? '' : '\n\nAsk me to "fix the typo" and run the tests again.'}`;
    }
  }
}

/** The notes server's answers (structured content: `{ note, total }` or `{ notes, ... }`). */
function describeNotes({ call, content }: FinishedCall): string {
  const result = parseJson(content);
  if (!isRecord(result)) return `The notes server answered: ${shorten(content, 300)}`;
  const line = (note: unknown) => (isRecord(note) ? `- #${String(note.id)}: ${String(note.text)}` : '');
  if (call.name === DEMO_NOTES_TOOL_NAMES.add && isRecord(result.note)) {
    return `Noted (#${String(result.note.id)}): "${String(result.note.text)}". You have ${String(result.total)} ${result.total === 1 ? 'note' : 'notes'} now; they live in the demo's MCP notes server.`;
  }
  const notes = Array.isArray(result.notes) ? result.notes : [];
  if (call.name === DEMO_NOTES_TOOL_NAMES.search) {
    return notes.length === 0 ? `No note matches "${String(result.query)}".` : `Notes matching "${String(result.query)}":\n${notes.map(line).join('\n')}`;
  }
  return notes.length === 0 ? 'You have no notes yet. Try "Take a note: call the bike shop on Monday".' : `Your notes, newest first:\n${notes.map(line).join('\n')}`;
}

function describeWeather({ content, args }: FinishedCall): string {
  const result = parseJson(content);
  if (!isRecord(result)) return `I could not read the weather for ${String(args.city ?? 'that city')}.`;
  const { city, temperatureC, conditions, humidityPercent, windKph } = result;
  const details = [
    typeof humidityPercent === 'number' ? `humidity ${humidityPercent}%` : undefined,
    typeof windKph === 'number' ? `wind ${windKph} km/h` : undefined,
  ].filter((part): part is string => part !== undefined);
  return `It's ${String(temperatureC)} °C and ${String(conditions)} in ${String(city)}${details.length ? ` (${details.join(', ')})` : ''}.`;
}

function describeResearch({ content, args }: FinishedCall): string {
  const result = parseJson(content);
  const topic = isRecord(result) && typeof result.topic === 'string' ? result.topic : String(args.topic ?? 'the topic');
  const findings = isRecord(result) && Array.isArray(result.findings) ? result.findings.filter((f): f is string => typeof f === 'string') : [];
  if (findings.length === 0) return `The research on ${topic} came back without findings.`;
  const note = isRecord(result) && typeof result.note === 'string' ? `\n\n${result.note}` : '';
  return `Here is what I found about ${topic}:\n${findings.map((f) => `- ${f}`).join('\n')}${note}`;
}

/** The researcher's report: the findings it was asked to save, and whether they were saved. */
function describeSavedFindings(entry: FinishedCall): string {
  const { args, content } = entry;
  const topic = String(args.topic ?? 'the topic');
  const findings = Array.isArray(args.findings) ? args.findings.filter((f): f is string => typeof f === 'string') : [];
  const list = `Here is what I found about ${topic}:\n${findings.map((f) => `- ${f}`).join('\n')}`;
  if (!entry.isError) {
    const receipt = parseJson(content);
    return `${list}\n\nI saved these findings to the research library (entry ${isRecord(receipt) ? String(receipt.id) : 'saved'}).`;
  }
  return `${list}\n\n${describeError(entry)}`;
}

/** The lead's answer from the sub-agent's report (the `task` result is the sub-agent's final text). */
function describeDelegation({ args, content }: FinishedCall): string {
  const parsed = parseJson(content);
  const report = (typeof parsed === 'string' ? parsed : content).trim();
  const name = String(args.subagent ?? 'sub-agent');
  if (!report) return `The ${name} came back without a report.`;
  return `The ${name} has finished. Its report:\n\n${report}`;
}

function describeEmail({ content, args }: FinishedCall): string {
  const result = parseJson(content);
  if (!isRecord(result)) return `The email to ${String(args.to)} was handled, but I could not read the receipt.`;
  return `Done: I sent the email "${String(result.subject)}" to ${String(result.to)}. Message id: ${String(result.messageId)}.`;
}

function describeAnswer({ content, args }: FinishedCall): string {
  const answer = content.trim();
  if (!answer) return 'You left the question unanswered, so I will leave it there.';
  if (args.question === TRIP_QUESTION.question) {
    return `${answer} it is! A good next step: ask me "What's the weather in ${answer}?" so you know what to pack.`;
  }
  if (args.question === DECISION_QUESTION.question) {
    return `Then let's put ${answer.toLowerCase()} first: list your options side by side and pick the one that does best on ${answer.toLowerCase()}.`;
  }
  return `You answered "${answer}". Tell me in a sentence what you would like, e.g. "${followUpFor(answer)}", and I will do it.`;
}

function followUpFor(answer: string): string {
  if (/weather/i.test(answer)) return "What's the weather in Tokyo?";
  if (/research/i.test(answer)) return 'Research the history of tea';
  if (/e-?mail/i.test(answer)) return 'Send an email to sam@example.com about lunch';
  return 'Help me plan a trip';
}

function describeError({ call, args, content }: FinishedCall): string {
  const error = parseJson(content);
  const kind = isRecord(error) ? error.kind : undefined;
  const what = describeCall(call.name, args);
  if (kind === 'rejected') {
    const note = isRecord(error) && typeof error.note === 'string' && error.note.trim() ? error.note.trim() : undefined;
    const didNot = call.name === DEMO_TOOL_NAMES.email ? `did not send the email to ${String(args.to)}` : `did not ${what}`;
    return note ? `OK, I ${didNot}: you rejected it with the note "${note}".` : `OK, I ${didNot}: you rejected it.`;
  }
  if (kind === 'cancelled') return `I stopped before I could ${what}, as you asked, so I have no result for it.`;
  const message = isRecord(error) && typeof error.message === 'string' ? error.message : shorten(content, 300);
  return `I tried to ${what}, but it failed: ${message}`;
}

/** "check the weather in Paris", "research solar power", ... — what a call was about to do. */
function describeCall(name: string, args: Record<string, unknown>): string {
  switch (name) {
    case DEMO_TOOL_NAMES.weather:
      return `check the weather in ${String(args.city ?? 'that city')}`;
    case DEMO_TOOL_NAMES.research:
      return `research ${String(args.topic ?? 'that topic')}`;
    case DEMO_TOOL_NAMES.email:
      return `send the email to ${String(args.to ?? 'that address')}`;
    case DEMO_TOOL_NAMES.question:
      return 'get your answer to my question';
    case DEMO_TOOL_NAMES.localTime:
      return 'read your time zone in your browser';
    case DEMO_TASK_TOOL:
      return `hand the task to the ${String(args.subagent ?? 'sub-agent')}`;
    case DEMO_RESEARCHER_TOOL_NAMES.save:
      return `save the findings on ${String(args.topic ?? 'that topic')}`;
    case DEMO_NOTES_TOOL_NAMES.add:
      return 'save your note';
    case DEMO_NOTES_TOOL_NAMES.list:
    case DEMO_NOTES_TOOL_NAMES.search:
      return 'read your notes';
    case DEMO_CODING_TOOL_NAMES.shell:
      return `run \`${String(args.command)}\``;
    case DEMO_CODING_TOOL_NAMES.read:
      return `read ${String(args.path)}`;
    case DEMO_CODING_TOOL_NAMES.edit:
      return `edit ${String(args.path)}`;
    default:
      return `run ${name}`;
  }
}

/** The sentence announcing the calls of a turn: "Sure! I'll check the weather in Paris and Tokyo." */
export function announceCalls(calls: readonly { name: string; args: Record<string, unknown> }[]): string {
  const clauses: string[] = [];
  const cities = calls.filter((c) => c.name === DEMO_TOOL_NAMES.weather).map((c) => String(c.args.city));
  let weatherSaid = false;
  for (const call of calls) {
    switch (call.name) {
      case DEMO_TOOL_NAMES.weather:
        if (!weatherSaid) clauses.push(`check the weather in ${listJoin(cities)}`);
        weatherSaid = true;
        break;
      case DEMO_TOOL_NAMES.research:
        clauses.push(`research ${String(call.args.topic)} (this takes a few seconds; you can watch its progress)`);
        break;
      case DEMO_TOOL_NAMES.email:
        clauses.push(`write an email to ${String(call.args.to)}, which waits for your approval before it is sent`);
        break;
      case DEMO_TOOL_NAMES.question:
        clauses.push('ask you a question first');
        break;
      case DEMO_TOOL_NAMES.localTime:
        clauses.push('ask your browser for your time zone (a tool that runs in the page, not on the server)');
        break;
      case DEMO_TASK_TOOL:
        clauses.push(`hand this to the ${String(call.args.subagent)} sub-agent: it looks the topic up, saves its findings (with your approval) and reports back`);
        break;
      case DEMO_NOTES_TOOL_NAMES.add:
        clauses.push('save that in your notes (an MCP server keeps them)');
        break;
      case DEMO_NOTES_TOOL_NAMES.list:
        clauses.push('list your notes');
        break;
      case DEMO_NOTES_TOOL_NAMES.search:
        clauses.push(`search your notes for "${String(call.args.query)}"`);
        break;
      case DEMO_CODING_TOOL_NAMES.shell:
        clauses.push(`run \`${String(call.args.command)}\` in the demo project`);
        break;
      case DEMO_CODING_TOOL_NAMES.read:
        clauses.push(`read ${String(call.args.path)}`);
        break;
      case DEMO_CODING_TOOL_NAMES.edit:
        clauses.push(`fix the typo in ${String(call.args.path)}`);
        break;
      case DEMO_CODING_TOOL_NAMES.list:
        clauses.push('list the files of the demo project');
        break;
      default:
        clauses.push(`run ${call.name}`);
    }
  }
  return `Sure! I'll ${listJoin(clauses)}.`;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
