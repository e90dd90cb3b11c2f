import { lstat, readdir, realpath } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { skillFieldProblem, skillOf } from '../skills/define-skill.js';
import type { Skill } from '@lousho/protocol';
import { parseFrontMatter } from '../skills/front-matter.js';
import { MAX_SKILL_FILE_BYTES, MAX_SKILL_MD_BYTES } from '../skills/limits.js';
import { readCapped } from './read-capped.js';

const SKILL_FILE = 'SKILL.md';
/** Front matter fields of the common format that carry information only. */
const INFORMATIONAL_FIELDS = new Set(['license', 'metadata', 'compatibility']);
/** Bounds on what one skill folder lists, so a stray `node_modules` does not flood the prompt. */
const MAX_FILES = 500;
const MAX_DEPTH = 6;

function invalid(file: string, line: number | undefined, message: string, hint: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_SKILL, `${file}${line !== undefined ? `:${line}` : ''}: ${message}.`, { hint });
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

/** Reads every skill of `dir` (see `loadSkills`), sorted by folder name. */
export async function readSkillsFolder(dir: string): Promise<Skill[]> {
  const root = resolve(dir);
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `loadSkills(): cannot read the folder '${dir}' (${codeOf(error) ?? 'error'}).`, {
      hint: 'Pass a folder that holds one sub-folder per skill, each with a SKILL.md.',
      cause: error,
    });
  }
  const skills: Skill[] = [];
  const seen = new Map<string, string>();
  for (const entry of entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))) {
    const folder = join(root, entry.name);
    const names = await readdir(folder);
    if (!names.includes(SKILL_FILE)) {
      const lookalike = names.find((name) => name.toLowerCase() === 'skill.md');
      if (lookalike) throw invalid(join(dir, entry.name, lookalike), undefined, `the skill file must be named ${SKILL_FILE}`, `Rename it to ${SKILL_FILE}.`);
      continue; // a folder of shared files, not a skill
    }
    const skill = await readSkill(folder, join(dir, entry.name, SKILL_FILE));
    const other = seen.get(skill.name);
    if (other) throw invalid(join(dir, entry.name, SKILL_FILE), undefined, `the skill name '${skill.name}' is also used by ${other}`, 'Give each skill a unique name.');
    seen.set(skill.name, join(dir, entry.name, SKILL_FILE));
    skills.push(skill);
  }
  return skills;
}

async function readSkill(folder: string, shownPath: string): Promise<Skill> {
  // Read with a cap: a 20 MB SKILL.md is refused after its first 256 KiB, not read whole.
  const { text, truncated, size } = await readCapped(join(folder, SKILL_FILE), MAX_SKILL_MD_BYTES);
  if (truncated) throw invalid(shownPath, undefined, `the file is ${size} bytes; a SKILL.md may have at most ${MAX_SKILL_MD_BYTES} (256 KiB)`, 'Move long material into other files of the skill folder; the model reads them with load_skill({ name, file }).');
  const parsed = parseFrontMatter(text);
  if (!('fields' in parsed)) throw invalid(shownPath, parsed.line, parsed.message, 'Start SKILL.md with ---, name: ..., description: ..., ---, then the instructions.');
  const { fields, lines } = parsed;
  for (const field of ['name', 'description'] as const) {
    const problem = skillFieldProblem(field, fields[field]);
    if (problem) throw invalid(shownPath, lines[field] ?? 2, `field ${problem}`, `Set \`${field}:\` in the front matter of SKILL.md.`);
  }
  for (const key of Object.keys(fields)) {
    if (key === 'name' || key === 'description' || INFORMATIONAL_FIELDS.has(key)) continue;
    const why = key === 'allowed-tools' ? 'is not supported (skills do not restrict tools here; use permissions)' : 'is not a skill field (name, description, license, metadata, compatibility)';
    throw invalid(shownPath, lines[key], `field \`${key}\` ${why}`, `Remove \`${key}\` from the front matter.`);
  }
  const files = await listFiles(folder);
  const realFolder = await realpath(folder);
  return skillOf(fields.name as string, fields.description as string, parsed.body, files, async (path) => readSkillFile(realFolder, path));
}

/** The folder's regular files (not SKILL.md, not hidden, no symlinks), `/`-separated and sorted. */
async function listFiles(folder: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return;
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (out.length >= MAX_FILES) return;
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile() && !(depth === 0 && entry.name === SKILL_FILE)) out.push(relative(folder, path).split(sep).join('/'));
    }
  };
  await walk(folder, 0);
  return out;
}

/**
 * Reads a listed file as text, refusing anything that resolves outside the skill's folder or is
 * binary. At most MAX_SKILL_FILE_BYTES are read; a longer file comes back cut, with a line that says so.
 */
async function readSkillFile(realFolder: string, path: string): Promise<string> {
  const full = await realpath(join(realFolder, ...path.split('/')));
  if (full !== realFolder && !full.startsWith(realFolder + sep)) throw new Error(`'${path}' is outside the skill's folder.`);
  if (!(await lstat(full)).isFile()) throw new Error(`'${path}' is not a file.`);
  const { text, truncated, size } = await readCapped(full, MAX_SKILL_FILE_BYTES);
  if (text.includes('\u0000')) throw new Error(`'${path}' is not a text file.`);
  return truncated ? `${text}\n[truncated: the file has ${size} bytes; its first ${MAX_SKILL_FILE_BYTES} were read]` : text;
}
