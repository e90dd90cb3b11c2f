import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

interface ComposerProps {
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** The message box: Enter sends, Shift+Enter adds a line; while a reply runs, Send becomes Stop. */
export function Composer({ busy, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);

  const submit = (event?: FormEvent): void => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || busy) return;
    onSend(message);
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
        placeholder={busy ? 'The agent is replying…' : 'Ask about the weather, research a topic, send an email…'}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        autoFocus
      />
      {busy ? (
        <button type="button" className="button button-stop" onClick={onStop}>
          <span className="stop-square" aria-hidden="true" />
          Stop
        </button>
      ) : (
        <button type="submit" className="button button-primary" disabled={text.trim() === ''}>
          Send
        </button>
      )}
    </form>
  );
}
