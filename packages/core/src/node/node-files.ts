// What `#node-files` resolves to in Node (and Bun, Deno): the file-reading parts of features the
// package root offers (skills folders, spec files, project instructions, file memory). Browsers and
// workers get `utils/node-files-unavailable.ts` instead (see "imports" in package.json), so a
// browser bundle never reaches `node:fs`, and a server bundle includes these like any import.
export const available = true;
export { readSkillsFolder } from './skill-folder.js';
export { readSpecFile } from './spec-file.js';
export { readTextFile } from './text-file.js';
export { FileStorageService } from './file-storage.js';
