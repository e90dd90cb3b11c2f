// The shape of `#node-files`, for TypeScript: the Node module (`node/node-files.ts`) and the
// browser stand-in (`node-files-unavailable.ts`) both have it. Type-checking code that imports
// `#node-files` sees this file (package.json "imports", `types`), so a project without Node's types
// (a browser package built from core's source) never reaches `node:fs`.
import type { Skill } from '@lousho/protocol';
import type { AgentSpec } from '@lousho/protocol';
import type { StorageService } from '@lousho/protocol';

export declare const available: boolean;
export declare function readSkillsFolder(dir: string): Promise<Skill[]>;
export declare function readSpecFile(path: string): Promise<AgentSpec>;
export declare function readTextFile(path: string): Promise<string>;
export declare const FileStorageService: new (options: { dir: string }) => StorageService;
