import { DEMO_TYPO } from './project.js';
import { DEMO_CODING_TOOL_NAMES } from '../tools/names.js';
import type { PlannedCall } from '../planned-call.js';

/** "delete everything", "wipe the disk", "clean up the disk": the command a guardrail stops. */
const WIPE = /\b(?:delete\s+everything|wipe\s+(?:the\s+)?(?:disk|everything)|clean\s+up\s+the\s+disk|rm\s+-rf)\b/i;
const TESTS = /\b(?:run\s+(?:the\s+)?tests?|npm\s+test)\b/i;
const FIX = /\bfix\s+(?:the\s+)?(?:typo|bug|greeting)\b/i;
const SHOW_PROJECT = /\b(?:list|show)\s+(?:me\s+)?the\s+(?:project|files)\b/i;
const READ = /\b(?:read|show|open)\b.*?\b(greet\.js|README(?:\.md)?|package\.json|greet\.test\.js)\b/i;

const FILES: Record<string, string> = { 'greet.js': 'src/greet.js', readme: 'README.md', 'readme.md': 'README.md', 'package.json': 'package.json', 'greet.test.js': 'test/greet.test.js' };

/** The coding call a message asks for, if any (checked before the other tools: "run the tests" is not research). */
export function codingCall(text: string): PlannedCall | undefined {
  // What a careless agent might run to "clean up": the command guardrail ends the run on it.
  if (WIPE.test(text)) return { name: DEMO_CODING_TOOL_NAMES.shell, args: { command: 'cd / && rm -rf *' } };
  if (TESTS.test(text)) return { name: DEMO_CODING_TOOL_NAMES.shell, args: { command: 'npm test' } };
  if (FIX.test(text)) return { name: DEMO_CODING_TOOL_NAMES.edit, args: { ...DEMO_TYPO } };
  if (SHOW_PROJECT.test(text)) return { name: DEMO_CODING_TOOL_NAMES.list, args: {} };
  const file = READ.exec(text)?.[1];
  if (file) return { name: DEMO_CODING_TOOL_NAMES.read, args: { path: FILES[file.toLowerCase()] ?? file } };
  return undefined;
}
