// What `#node-files` resolves to in browsers and edge workers: no file system. `loadNodeFiles()`
// sees `available: false` and fails with an error naming the feature that needs Node.
import type * as NodeFiles from './node-files-types.js';

const unavailable = (): never => {
  throw new Error('This runtime has no file system.');
};

export const available: boolean = false;
export const readSkillsFolder: typeof NodeFiles.readSkillsFolder = unavailable;
export const readSpecFile: typeof NodeFiles.readSpecFile = unavailable;
export const readTextFile: typeof NodeFiles.readTextFile = unavailable;
export const FileStorageService = unavailable as unknown as typeof NodeFiles.FileStorageService;
