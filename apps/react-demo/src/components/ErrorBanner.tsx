export interface ShownError {
  code: string;
  message: string;
}

/** A failure said plainly: what happened, its code, and what the user can do next. */
export function ErrorBanner({ error, onRetry, onDismiss }: { error: ShownError; onRetry: (() => void) | undefined; onDismiss: () => void }) {
  return (
    <div className="error-banner" role="alert" data-testid="error">
      <div className="error-text">
        <strong>Something went wrong.</strong> <span data-testid="error-message">{error.message}</span>
        <code className="error-code">{error.code}</code>
      </div>
      <div className="error-actions">
        {onRetry ? (
          <button type="button" className="button button-small" onClick={onRetry}>
            Retry
          </button>
        ) : null}
        <button type="button" className="button button-small button-ghost" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
