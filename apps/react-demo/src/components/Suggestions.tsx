import { demoSuggestions } from '@lousho/demo-agent';

/** One chip per demo feature; a click sends its prompt. */
export function Suggestions({ onPick, disabled, compact = false }: { onPick: (prompt: string) => void; disabled: boolean; compact?: boolean }) {
  return (
    <div className={compact ? 'suggestions is-compact' : 'suggestions'} aria-label="Suggestions">
      {demoSuggestions.map((suggestion) => (
        <button key={suggestion.label} type="button" className="chip" disabled={disabled} title={suggestion.prompt} onClick={() => onPick(suggestion.prompt)}>
          {suggestion.label}
        </button>
      ))}
    </div>
  );
}
