export { defineSkill, type SkillDefinition } from './define-skill.js';
export type { Skill } from '@lousho/protocol';
export { loadSkills } from './load-skills.js';
export { LOAD_SKILL_TOOL, type LoadSkillResult } from './skill-tool.js';
