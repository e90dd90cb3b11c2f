import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { contentTypeFor } from './content-types.js';

export interface StaticApp {
  /** Where the app is mounted, ending in `/` (e.g. `/` or `/vue/`). */
  mountPath: string;
  /** The folder with its built files (`index.html` and the rest). */
  dir: string;
  /** Shown in messages, e.g. "React demo". */
  name: string;
  /** The command that builds it, for the message shown while it is not built. */
  buildCommand: string;
}

/**
 * Security headers for the demo pages. The CSP is a second line of defence only: the demos render
 * model text as text, and the browser tests check that without relying on it.
 */
// (img-src blob: shows the images a page uploaded to its in-page agent, from the page's own copy.)
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
};

type Resolved = { kind: 'file'; path: string; stats: Stats } | { kind: 'missing' } | { kind: 'forbidden' };

/**
 * Serves a built single-page app: its files with the right content types, `index.html` for any
 * other path below the mount (client-side routes), and nothing outside its folder.
 * Returns false when the request is not below the mount path, so the caller can try something else.
 */
export async function serveStaticApp(app: StaticApp, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
  const mount = app.mountPath;
  const below = pathname === mount.slice(0, -1) ? '' : pathname.startsWith(mount) ? pathname.slice(mount.length) : undefined;
  if (below === undefined) return false;
  if (pathname === mount.slice(0, -1) && mount !== '/') {
    // `/vue` → `/vue/`, so the app's relative asset URLs resolve.
    res.writeHead(308, { location: mount }).end();
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendText(res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
    return true;
  }

  const root = resolve(app.dir);
  const index = await resolveFile(root, 'index.html');
  if (index.kind !== 'file') {
    sendText(res, 503, `The ${app.name} is not built yet: run \`${app.buildCommand}\`, then reload.`);
    return true;
  }

  let relative: string;
  try {
    relative = decodeURIComponent(below);
  } catch {
    sendText(res, 400, 'Bad path.');
    return true;
  }
  if (relative.includes('\0') || relative.includes('\\')) {
    sendText(res, 400, 'Bad path.');
    return true;
  }

  const found = relative === '' ? index : await resolveFile(root, relative);
  if (found.kind === 'forbidden') {
    sendText(res, 404, 'Not found.');
    return true;
  }
  if (found.kind === 'file') {
    sendFile(req, res, found.path, found.stats);
    return true;
  }
  // A path that names a file (it has an extension) and is missing is a real 404; anything else is
  // a client-side route of the app.
  if (extname(relative) !== '' || !acceptsHtml(req)) {
    sendText(res, 404, 'Not found.');
    return true;
  }
  sendFile(req, res, index.path, index.stats);
  return true;
}

/** `relative` inside `root`, or forbidden when it would leave it (`..`, absolute paths). */
async function resolveFile(root: string, relative: string): Promise<Resolved> {
  const path = resolve(join(root, relative));
  if (path !== root && !path.startsWith(root + sep)) return { kind: 'forbidden' };
  // Dotfiles are never part of a build; keep them private.
  if (path.slice(root.length).split(sep).some((segment) => segment.startsWith('.'))) return { kind: 'forbidden' };
  try {
    const stats = await stat(path);
    if (stats.isFile()) return { kind: 'file', path, stats };
    if (stats.isDirectory()) return resolveFile(root, join(relative, 'index.html'));
    return { kind: 'missing' };
  } catch {
    return { kind: 'missing' };
  }
}

function sendFile(req: IncomingMessage, res: ServerResponse, path: string, stats: Stats): void {
  const extension = extname(path);
  // Vite puts content-hashed files under assets/: they never change. The page itself always may.
  const hashed = path.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    ...(extension === '.html' ? PAGE_HEADERS : { 'x-content-type-options': 'nosniff' }),
    'content-type': contentTypeFor(extension),
    'content-length': String(stats.size),
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function acceptsHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*');
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers });
  res.end(text);
}
