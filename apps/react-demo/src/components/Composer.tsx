import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

interface ComposerProps {
  busy: boolean;
  /** `steer`: into the running reply; otherwise a message sent while one runs waits for its turn. */
  onSend: (text: string, mode?: 'steer') => void;
  onStop: () => void;
}

/**
 * The message box: Enter sends, Shift+Enter adds a line. While a reply runs, Enter (Queue) sends a
 * message that waits for its turn, Steer gives it to the reply at its next step, and Stop stops it.
 */
export function Composer({ busy, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);

  const submit = (event?: FormEvent, mode?: 'steer'): void => {
    event?.preventDefault();
    const message = text.trim();
    if (!message) return;
    onSend(message, mode);
    setText('');
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };

  return (
    <form className="composer" onSubmit={submit}>
      <label className="visually-hidden" htmlFor="composer-input">
        Message
      </label>
      <textarea
        id="composer-input"
        ref={input}
        rows={1}
        value={text}
        placeholder={busy ? 'The agent is replying… a message sent now waits for its turn' : 'Ask about the weather, research a topic, send an email…'}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        autoFocus
      />
      {busy ? (
        <>
          <button type="submit" className="button button-small" disabled={text.trim() === ''}>
            Queue
          </button>
          <button type="button" className="button button-small" disabled={text.trim() === ''} onClick={() => submit(undefined, 'steer')}>
            Steer
          </button>
          <button type="button" className="button button-stop" onClick={onStop}>
            <span className="stop-square" aria-hidden="true" />
            Stop
          </button>
        </>
      ) : (
        <button type="submit" className="button button-primary" disabled={text.trim() === ''}>
          Send
        </button>
      )}
    </form>
  );
}
