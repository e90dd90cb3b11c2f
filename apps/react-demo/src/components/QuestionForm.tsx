import { useState, type FormEvent } from 'react';
import type { PendingApprovalInfo } from '@lousho/build-ai-agent';
import { optionsOf, questionOf } from '@lousho/demo-agent';

/** The run is paused on a question for the person: show it, offer its options, take the answer. */
export function QuestionForm({ approval, onAnswer }: { approval: PendingApprovalInfo; onAnswer: (text: string) => void }) {
  const [text, setText] = useState('');
  const [sent, setSent] = useState(false);
  const options = optionsOf(approval.args);
  const question = approval.question ?? questionOf(approval.args) ?? 'The agent has a question for you.';

  const answer = (value: string): void => {
    const trimmed = value.trim();
    if (!trimmed || sent) return;
    setSent(true);
    onAnswer(trimmed);
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    answer(text);
  };

  return (
    <form className="pause-panel question-form" data-testid="question-form" onSubmit={submit} aria-labelledby="question-title">
      <header className="pause-header">
        <span className="pause-icon pause-icon-question" aria-hidden="true">
          ?
        </span>
        <div>
          <h2 id="question-title" data-testid="question-text">
            {question}
          </h2>
          <p className="pause-hint">The agent is waiting for your answer.</p>
        </div>
      </header>
      {options.length > 0 ? (
        <div className="suggestions is-compact" aria-label="Suggested answers">
          {options.map((option) => (
            <button key={option} type="button" className="chip" disabled={sent} onClick={() => answer(option)}>
              {option}
            </button>
          ))}
        </div>
      ) : null}
      <div className="composer">
        <label className="visually-hidden" htmlFor="question-answer">
          Your answer
        </label>
        <textarea
          id="question-answer"
          rows={1}
          value={text}
          placeholder="Type your answer…"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              answer(text);
            }
          }}
          autoFocus
        />
        <button type="submit" className="button button-primary" disabled={sent || text.trim() === ''}>
          Answer
        </button>
      </div>
    </form>
  );
}
