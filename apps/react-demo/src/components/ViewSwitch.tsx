import { VIEW_LABELS, type View } from '../view.ts';

const VIEWS: readonly View[] = ['chat', 'triage'];

/** The chat, or the triage flow: a two-way segmented switch. */
export function ViewSwitch({ view, onChange }: { view: View; onChange: (view: View) => void }) {
  return (
    <div className="mode-switch view-switch" role="radiogroup" aria-label="What to show">
      {VIEWS.map((option) => (
        <button
          key={option}
          type="button"
          role="radio"
          aria-checked={view === option}
          className={view === option ? 'mode-option is-active' : 'mode-option'}
          onClick={() => onChange(option)}
        >
          {VIEW_LABELS[option]}
        </button>
      ))}
    </div>
  );
}
