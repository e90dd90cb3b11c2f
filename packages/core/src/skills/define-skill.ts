import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { Skill } from '@lousho/protocol';

/** Skill names follow the common skill-folder convention: letters, digits, `-` and `_`, at most 64. */
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const MAX_DESCRIPTION = 1024;

/** What `defineSkill()` takes: a skill written in code rather than read from a `SKILL.md` folder. */
export interface SkillDefinition {
  /** How the model names the skill: letters, digits, `-` and `_`, at most 64 characters. */
  name: string;
  /** When to use it (the model decides from this alone): at most 1,024 characters. */
  description: string;
  /** The instructions, loaded on demand. */
  content: string;
  /** Extra files by path (e.g. `{ 'examples/refund.md': '...' }`), readable through `load_skill`. */
  files?: Readonly<Record<string, string>>;
}

/** What a bad skill field is, in one sentence, or undefined when the value is fine. */
export function skillFieldProblem(field: 'name' | 'description' | 'content', value: unknown): string | undefined {
  if (field === 'name') {
    if (typeof value !== 'string' || !SKILL_NAME.test(value)) return `\`name\` must be 1-64 letters, digits, - or _ (starting with a letter or digit), got ${show(value)}`;
    return undefined;
  }
  if (field === 'description') {
    if (typeof value !== 'string' || value.trim() === '') return `\`description\` must be a non-empty string, got ${show(value)}`;
    if (value.length > MAX_DESCRIPTION) return `\`description\` must be at most ${MAX_DESCRIPTION} characters, got ${value.length}`;
    return undefined;
  }
  return typeof value === 'string' ? undefined : `\`content\` must be a string, got ${show(value)}`;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' ? (Array.isArray(value) ? 'a list' : 'an object') : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Defines a skill from values in code; throws `LOUSHO_INVALID_SKILL` naming the bad field. */
export function defineSkill(definition: SkillDefinition): Skill {
  if (typeof definition !== 'object' || definition === null) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_SKILL, 'defineSkill() needs { name, description, content }.', { hint: "defineSkill({ name: 'refunds', description: 'How to handle a refund request', content: '...' })" });
  }
  for (const field of ['name', 'description', 'content'] as const) {
    const problem = skillFieldProblem(field, definition[field]);
    if (problem) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_SKILL, `defineSkill(): ${problem}.`, { hint: 'A skill needs a name, a description saying when to use it, and its content.' });
  }
  for (const key of Object.keys(definition)) {
    if (key !== 'name' && key !== 'description' && key !== 'content' && key !== 'files') {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_SKILL, `defineSkill(): unknown field \`${key}\` (skill '${definition.name}').`, { hint: 'A skill has name, description, content and optional files.' });
    }
  }
  const files = new Map<string, string>();
  for (const [path, text] of Object.entries(definition.files ?? {})) {
    if (typeof text !== 'string') {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_SKILL, `defineSkill(): \`files\` of skill '${definition.name}' must map paths to text; '${path}' is not a string.`, { hint: "files: { 'examples/refund.md': '...' }" });
    }
    files.set(path, text);
  }
  return skillOf(definition.name, definition.description, definition.content, [...files.keys()], async (path) => files.get(path)!);
}

/** A frozen skill whose `readFile` only ever reads one of its listed files. */
export function skillOf(name: string, description: string, content: string, files: readonly string[], read: (path: string) => Promise<string>): Skill {
  const listed = new Set(files);
  return Object.freeze({
    name,
    description,
    content,
    files: Object.freeze([...files]),
    async readFile(path: string): Promise<string> {
      if (!listed.has(path)) throw new Error(`Skill '${name}' has no file '${String(path).slice(0, 200)}'. Its files: ${files.length ? files.join(', ') : 'none'}.`);
      return read(path);
    },
  });
}

/** Checks a skills list: each entry a skill, names unique. */
export function checkSkills(skills: unknown): readonly Skill[] {
  if (!Array.isArray(skills)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `skills must be a list of skills (from defineSkill() or loadSkills()), got ${show(skills)}.`, { hint: 'skills: [defineSkill({ ... }), ...(await loadSkills(dir))]' });
  }
  const seen = new Set<string>();
  for (const skill of skills as unknown[]) {
    const s = skill as Partial<Skill> | null;
    if (typeof s !== 'object' || s === null || typeof s.name !== 'string' || typeof s.readFile !== 'function' || !Array.isArray(s.files)) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Every entry of skills must come from defineSkill() or loadSkills(), got ${show(skill)}.`, { hint: 'Wrap plain objects in defineSkill().' });
    }
    if (seen.has(s.name)) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Two skills are named '${s.name}'.`, { hint: 'Give each skill a unique name.' });
    }
    seen.add(s.name);
  }
  return skills as readonly Skill[];
}
