/** What the demo shows: the chat with the demo agent, or the triage flow. */
export type View = 'chat' | 'triage';

export const VIEW_LABELS: Readonly<Record<View, string>> = { chat: 'Chat', triage: 'Triage flow' };

/** The view lives in the URL (`?view=triage`), so a reload or a shared link keeps it. The chat is the default. */
export function readView(): View {
  return new URLSearchParams(window.location.search).get('view') === 'triage' ? 'triage' : 'chat';
}

export function writeView(view: View): void {
  const url = new URL(window.location.href);
  if (view === 'triage') url.searchParams.set('view', 'triage');
  else url.searchParams.delete('view');
  window.history.replaceState(window.history.state, '', url);
}
