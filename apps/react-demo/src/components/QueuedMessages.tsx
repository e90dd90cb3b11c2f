/** A message sent while the agent replied, as the binding shows it (`agent.queued`). */
interface Queued {
  id: string;
  mode: 'queue' | 'steer';
  parts: readonly { type: string; text?: string }[];
}

/** The messages waiting for the running reply: each runs next (or steers the reply) unless removed. */
export function QueuedMessages({ queued, onRemove }: { queued: readonly Queued[] | undefined; onRemove: (id: string) => void }) {
  if (!queued?.length) return null;
  return (
    <ul className="queued" aria-label="Waiting messages" data-testid="queued">
      {queued.map((item) => {
        const text = item.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
        return (
          <li key={item.id} className="queued-item" data-testid="queued-message" data-mode={item.mode}>
            <span className="queued-label">{item.mode === 'steer' ? 'Joins this reply' : 'Sent next'}</span>
            <span className="queued-text">{text}</span>
            <button type="button" className="button button-small button-ghost" aria-label={`Remove “${text}”`} onClick={() => onRemove(item.id)}>
              Remove
            </button>
          </li>
        );
      })}
    </ul>
  );
}
