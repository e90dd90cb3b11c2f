import { MODE_LABELS, type Mode } from '../mode.ts';

const MODES: readonly Mode[] = ['page', 'http'];
const HINTS: Readonly<Record<Mode, string>> = {
  page: 'The demo agent runs inside this page: nothing leaves your browser, and the chat is kept in it (IndexedDB).',
  http: 'The agent runs on the demo server; the page talks to it over HTTP (reload-safe).',
};

/** Where the agent runs: a two-way segmented switch. */
export function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  return (
    <div className="mode-switch" role="radiogroup" aria-label="Where the agent runs">
      {MODES.map((option) => (
        <button
          key={option}
          type="button"
          role="radio"
          aria-checked={mode === option}
          title={HINTS[option]}
          className={mode === option ? 'mode-option is-active' : 'mode-option'}
          onClick={() => onChange(option)}
        >
          {MODE_LABELS[option]}
        </button>
      ))}
    </div>
  );
}
