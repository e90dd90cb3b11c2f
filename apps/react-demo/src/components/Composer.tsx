import { useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import type { AttachmentPart } from '@lousho/build-ai-agent';
import { ATTACHMENT_ACCEPT, filesOf, formatFileSize } from '@lousho/demo-agent';

interface ComposerProps {
  busy: boolean;
  /** `steer`: into the running reply; otherwise a message sent while one runs waits for its turn. */
  onSend: (text: string, attachments: AttachmentPart[], mode?: 'steer') => void;
  onStop: () => void;
  /** Uploads a file at once (it waits in the composer until sent); rejects with the server's refusal. */
  onUpload: (file: File) => Promise<AttachmentPart>;
}

/** A file in the composer: uploading, or uploaded (its part, sent with the next message). */
type Waiting = { key: number; name: string; part?: AttachmentPart };

/**
 * The message box: Enter sends, Shift+Enter adds a line. While a reply runs, Enter (Queue) sends a
 * message that waits for its turn, Steer gives it to the reply at its next step, and Stop stops it.
 * Files come from the paper clip, a drop on the box, or a paste; each uploads at once.
 */
export function Composer({ busy, onSend, onStop, onUpload }: ComposerProps) {
  const [text, setText] = useState('');
  const [files, setFiles] = useState<Waiting[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const nextKey = useRef(0);

  const uploading = files.some((file) => !file.part);
  const ready = files.flatMap((file) => (file.part ? [file.part] : []));

  const add = (picked: File[]): void => {
    for (const file of picked) {
      const key = nextKey.current++;
      setFiles((list) => [...list, { key, name: file.name }]);
      onUpload(file).then(
        (part) => setFiles((list) => list.map((item) => (item.key === key ? { ...item, part } : item))),
        // Refused (too large, a type the server does not take): the error banner says why.
        () => setFiles((list) => list.filter((item) => item.key !== key)),
      );
    }
  };

  const empty = text.trim() === '' && ready.length === 0;
  const submit = (event?: FormEvent, mode?: 'steer'): void => {
    event?.preventDefault();
    const message = text.trim();
    if (empty || uploading) return;
    onSend(message, ready, mode);
    setText('');
    setFiles([]);
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  const onPaste = (event: ClipboardEvent): void => {
    const pasted = filesOf(event.clipboardData);
    if (pasted.length === 0) return;
    event.preventDefault();
    add(pasted);
  };
  const onDrop = (event: DragEvent): void => {
    event.preventDefault();
    setDragging(false);
    add(filesOf(event.dataTransfer));
  };

  return (
    <form
      className={dragging ? 'composer composer-column dragging' : 'composer composer-column'}
      onSubmit={submit}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {files.length > 0 ? (
        <div className="composer-files" data-testid="composer-files">
          {files.map((file) => (
            <span key={file.key} className="attachment-chip">
              {file.part ? `${file.part.name} · ${formatFileSize(file.part.size)}` : `${file.name} · uploading…`}
              <button type="button" aria-label={`Remove ${file.name}`} onClick={() => setFiles((list) => list.filter((item) => item.key !== file.key))}>
                ×
              </button>
            </span>
          ))}
        </div>
      ) : null}
      <div className="composer-row">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          accept={ATTACHMENT_ACCEPT}
          data-testid="file-input"
          onChange={(event) => {
            add(Array.from(event.target.files ?? []));
            event.target.value = '';
          }}
        />
        <button type="button" className="button button-attach" aria-label="Attach files" title="Attach files" onClick={() => picker.current?.click()}>
          <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" /></svg>
        </button>
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
          onPaste={onPaste}
          autoFocus
        />
        {busy ? (
          <>
            <button type="submit" className="button button-small" disabled={uploading || empty}>
              Queue
            </button>
            <button type="button" className="button button-small" disabled={uploading || empty} onClick={() => submit(undefined, 'steer')}>
              Steer
            </button>
            <button type="button" className="button button-stop" onClick={onStop}>
              <span className="stop-square" aria-hidden="true" />
              Stop
            </button>
          </>
        ) : (
          <button type="submit" className="button button-primary" disabled={uploading || empty}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
