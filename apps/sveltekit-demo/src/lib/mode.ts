/** Where the agent runs: in this page (the demo agent bundled into the app) or in this app's server. */
export type Mode = 'page' | 'http';

export const MODE_LABELS: Readonly<Record<Mode, string>> = { page: 'In this page', http: 'HTTP server' };

/** The mode lives in the URL (`?mode=page`), so a reload or a shared link keeps it. HTTP is the default. */
export function modeOf(url: URL): Mode {
  return url.searchParams.get('mode') === 'page' ? 'page' : 'http';
}

/** The page's URL for a mode. */
export function urlFor(mode: Mode, current: URL): URL {
  const url = new URL(current);
  if (mode === 'page') url.searchParams.set('mode', 'page');
  else url.searchParams.delete('mode');
  return url;
}
