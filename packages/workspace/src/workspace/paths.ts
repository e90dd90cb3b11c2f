import { outsideRoot } from './errors.js';

/**
 * A workspace path as a normalized POSIX path relative to the root (`''` is the root itself).
 * `..` that climbs above the root, an absolute path outside `absoluteRoot`, and NUL bytes are refused.
 * An absolute path inside `absoluteRoot` (compared exactly: case matters) is accepted.
 */
export function confinePath(path: string, absoluteRoot?: string): string {
  if (typeof path !== 'string') throw outsideRoot(String(path), 'it is not a string');
  if (path.includes('\0')) throw outsideRoot(path.replace(/\0/g, '\\0'), 'it contains a NUL byte');
  let rest = path;
  if (rest.startsWith('/')) {
    const root = absoluteRoot?.replace(/\/+$/, '') ?? '';
    if (!absoluteRoot) throw outsideRoot(path, 'absolute paths are not accepted; use a path relative to the workspace root');
    if (rest !== root && !rest.startsWith(`${root}/`) && root !== '') throw outsideRoot(path);
    rest = rest.slice(root.length);
  }
  if (rest === '~' || rest.startsWith('~/')) throw outsideRoot(path, '~ is the home directory, not the workspace');
  const segments: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw outsideRoot(path);
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return segments.join('/');
}

/** `a/b` + `c` → `a/b/c`, for relative workspace paths. */
export function joinPath(dir: string, name: string): string {
  return dir === '' || dir === '.' ? name : `${dir}/${name}`;
}

/** The shown form of a relative workspace path (`.` for the root). */
export function displayPath(path: string): string {
  return path === '' ? '.' : path;
}
