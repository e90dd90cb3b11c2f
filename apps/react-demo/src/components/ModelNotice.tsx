import type { Mode } from '../mode.ts';
import type { ModelInfo } from '../server-info.ts';

interface ModelNoticeProps {
  model: ModelInfo | undefined;
  mode: Mode;
  serverUnreachable: boolean;
  onUsePage: () => void;
}

/** Says plainly who answers: the offline demo model, or the real model the server is configured with. */
export function ModelNotice({ model, mode, serverUnreachable, onUsePage }: ModelNoticeProps) {
  if (serverUnreachable) {
    return (
      <div className="notice notice-warning" role="status" data-testid="model-notice">
        <span className="notice-badge">Server offline</span>
        <span>
          The demo server does not answer at <code>/api</code>. Start it with <code>pnpm demo</code>, or{' '}
          <button type="button" className="link-button" onClick={onUsePage}>
            run the agent in this page
          </button>
          .
        </span>
      </div>
    );
  }
  if (!model) {
    return (
      <div className="notice" role="status" data-testid="model-notice">
        <span className="notice-badge">Connecting</span>
        <span>Asking the demo server which model it uses…</span>
      </div>
    );
  }
  return (
    <div className={model.kind === 'demo' ? 'notice' : 'notice notice-real'} role="status" data-testid="model-notice" data-model-kind={model.kind}>
      <span className="notice-badge">{model.kind === 'demo' ? 'Offline demo model' : `${model.provider}/${model.model}`}</span>
      <span>
        {model.notice}
        {mode === 'page' ? ' It runs right here in your browser.' : ''}
      </span>
    </div>
  );
}
