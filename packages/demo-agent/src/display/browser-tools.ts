/**
 * What the demos' tool cards say about a browser tool's call (`approval.kind` is `client`): while it
 * waits for the page (`state: 'awaiting-client'`), and once the page sent its result.
 */
export const BROWSER_TOOL_LABELS = {
  /** The card's badge while the call waits for the page. */
  badge: 'In your browser',
  /** The card's note while the call waits. */
  waiting: 'This tool runs in your browser, not on the server: the page sends its result.',
  /** The heading of the card's decision section once the page sent the result. */
  ran: 'Ran in your browser',
} as const;
