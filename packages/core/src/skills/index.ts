export { defineSkill, type Skill, type SkillDefinition } from './define-skill.js';
export { loadSkills } from './load-skills.js';
export { LOAD_SKILL_TOOL, type LoadSkillResult } from './skill-tool.js';
