/** The handler's routes, relative to its base path. */
export type Route =
  | { name: 'createSession' }
  | { name: 'listSessions' }
  | { name: 'getSession'; sessionId: string }
  | { name: 'renameSession'; sessionId: string }
  | { name: 'deleteSession'; sessionId: string }
  | { name: 'sendMessage'; sessionId: string }
  | { name: 'decide'; sessionId: string; approvalId: string }
  | { name: 'stop'; sessionId: string }
  | { name: 'resume'; sessionId: string }
  | { name: 'events'; sessionId: string }
  | { name: 'queue'; sessionId: string }
  | { name: 'uploadFile'; sessionId: string }
  | { name: 'getFile'; sessionId: string; fileId: string };

export type RouteMatch = { route: Route } | { notFound: true } | { allow: string };

/** Normalizes a base path: leading slash, no trailing slash, `''` for the root. */
export function normalizeBasePath(basePath: string | undefined): string {
  if (!basePath) return '';
  const trimmed = basePath.replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** Matches `method` + `pathname` (already relative checks done here) to a route, a 404 or a 405. */
export function matchRoute(method: string, pathname: string, basePath: string): RouteMatch {
  if (basePath) {
    if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return { notFound: true };
    pathname = pathname.slice(basePath.length);
  }
  const raw = pathname.split('/').filter((segment) => segment !== '');
  let segments: string[];
  try {
    segments = raw.map((segment) => decodeURIComponent(segment));
  } catch {
    return { notFound: true };
  }
  if (segments[0] !== 'sessions') return { notFound: true };
  const [, sessionId, action, approvalId, ...rest] = segments;
  if (rest.length > 0) return { notFound: true };
  const only = (allowed: string, route: Route): RouteMatch => (method === allowed ? { route } : { allow: allowed });
  if (sessionId === undefined) {
    if (method === 'GET') return { route: { name: 'listSessions' } };
    return method === 'POST' ? { route: { name: 'createSession' } } : { allow: 'GET, POST' };
  }
  if (action === undefined) {
    if (method === 'PATCH') return { route: { name: 'renameSession', sessionId } };
    if (method === 'DELETE') return { route: { name: 'deleteSession', sessionId } };
    return method === 'GET' ? { route: { name: 'getSession', sessionId } } : { allow: 'GET, PATCH, DELETE' };
  }
  if (action === 'approvals' && approvalId !== undefined) return only('POST', { name: 'decide', sessionId, approvalId });
  if (action === 'files') return approvalId === undefined ? only('POST', { name: 'uploadFile', sessionId }) : only('GET', { name: 'getFile', sessionId, fileId: approvalId });
  if (approvalId !== undefined) return { notFound: true };
  if (action === 'queue') return only('POST', { name: 'queue', sessionId });
  if (action === 'messages') return only('POST', { name: 'sendMessage', sessionId });
  if (action === 'stop') return only('POST', { name: 'stop', sessionId });
  if (action === 'resume') return only('POST', { name: 'resume', sessionId });
  if (action === 'events') return only('GET', { name: 'events', sessionId });
  return { notFound: true };
}
