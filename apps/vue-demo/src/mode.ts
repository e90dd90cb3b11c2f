/** Where the agent runs: in this page (the demo agent bundled into the app) or on the demo server. */
export type Mode = 'page' | 'http';

export const MODE_LABELS: Readonly<Record<Mode, string>> = { page: 'In this page', http: 'HTTP server' };

/** The mode lives in the URL (`?mode=page`), so a reload or a shared link keeps it. HTTP is the default. */
export function readMode(): Mode {
  return new URLSearchParams(window.location.search).get('mode') === 'page' ? 'page' : 'http';
}

export function writeMode(mode: Mode): void {
  const url = new URL(window.location.href);
  if (mode === 'page') url.searchParams.set('mode', 'page');
  else url.searchParams.delete('mode');
  window.history.replaceState(window.history.state, '', url);
}
