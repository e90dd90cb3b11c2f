import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import type { ToolDescriptor } from '@lousho/protocol';
import type { Skill } from '@lousho/protocol';
import { MAX_SKILL_TEXT_CHARS } from './limits.js';

/** The name of the tool through which the model reads skills. */
export const LOAD_SKILL_TOOL = 'load_skill';


/**
 * What the `load_skill` tool answers the model: a skill's instructions with the list of its other
 * files, or (with `file`) the text of one of them, `truncated` when it was cut to fit.
 */
export type LoadSkillResult =
  | { skill: string; content: string; files: readonly string[]; truncated?: true }
  | { skill: string; file: string; content: string; truncated?: true };

/**
 * `load_skill({ name, file? })`: the skill's instructions and the list of its other files, or the
 * text of one of those files. Names are an enum of the skills given, so a wrong name is an argument
 * error the model can correct.
 */
export function loadSkillTool(skills: readonly Skill[]): ToolDescriptor {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const names = skills.map((skill) => skill.name) as [string, ...string[]];
  return defineTool({
    name: LOAD_SKILL_TOOL,
    displayName: 'Load a skill',
    description:
      'Load the full instructions of one of your skills (listed in the system prompt) before doing a task it covers. ' +
      'Pass `file` to read one of the files the skill lists instead.',
    input: z.object({
      name: z.enum(names).describe('The skill to load.'),
      file: z.string().min(1).max(500).optional().describe("One of the skill's files, as listed when the skill was loaded."),
    }),
    execute: async ({ name, file }): Promise<LoadSkillResult> => {
      const skill = byName.get(name)!;
      // A skill must not flood the context: instructions and files past the bound are cut, and the model is told.
      if (file === undefined) {
        const body = capped(skill.content);
        return { skill: name, content: body.text, files: skill.files, ...(body.truncated ? { truncated: true as const } : {}) };
      }
      const text = capped(await skill.readFile(file));
      return { skill: name, file, content: text.text, ...(text.truncated ? { truncated: true as const } : {}) };
    },
  }) as ToolDescriptor;
}

function capped(text: string): { text: string; truncated: boolean } {
  if (text.length <= MAX_SKILL_TEXT_CHARS) return { text, truncated: false };
  return { text: `${text.slice(0, MAX_SKILL_TEXT_CHARS)}\n[truncated: the text has ${text.length} characters; the first ${MAX_SKILL_TEXT_CHARS} are shown]`, truncated: true };
}

/** The system prompt's list of skills: names and descriptions only. */
export function skillsSection(skills: readonly Skill[]): string {
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ').trim()}`);
  return [
    '## Skills',
    `You have skills: instructions for particular kinds of task. When a task matches a skill's description, call ${LOAD_SKILL_TOOL} with its name first and follow what it says.`,
    ...lines,
  ].join('\n');
}
