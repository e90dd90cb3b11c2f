import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { loadNodeFiles } from '../utils/node-only.js';
import type { Skill } from '@lousho/protocol';

/**
 * Reads a folder of skills in the common layout: one sub-folder per skill holding a `SKILL.md`
 * whose YAML front matter has `name` and `description` and whose body is the content; the folder's
 * other files are listed to the model and readable through `load_skill`. Node (and Bun, Deno) only.
 * A malformed skill fails with `LOUSHO_INVALID_SKILL` naming the file, the line and the field.
 */
export async function loadSkills(dir: string): Promise<Skill[]> {
  if (typeof dir !== 'string' || dir === '') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'loadSkills() needs the path of a folder of skills.', { hint: "loadSkills('./skills')" });
  }
  const module = await loadNodeFiles('loadSkills()', 'In a browser or a worker, build skills with defineSkill() instead.');
  return module.readSkillsFolder(dir);
}
