/** What the demo shows: the chat with the demo agent, or the triage flow. */
export type View = 'chat' | 'triage';

export const VIEW_LABELS: Readonly<Record<View, string>> = { chat: 'Chat', triage: 'Triage flow' };

/** The view lives in the URL (`?view=triage`), so a reload or a shared link keeps it. The chat is the default. */
export function viewOf(url: URL): View {
  return url.searchParams.get('view') === 'triage' ? 'triage' : 'chat';
}

/** The page's URL for a view. */
export function urlForView(view: View, current: URL): URL {
  const url = new URL(current);
  if (view === 'triage') url.searchParams.set('view', 'triage');
  else url.searchParams.delete('view');
  return url;
}
