import { useEffect, useState, type FormEvent } from 'react';
import { useLoushoSessions, type UseLoushoSessionsChat } from '@lousho/build-ai-agent/react/sessions';
import type { SessionListSource, SessionSummary } from '@lousho/build-ai-agent/sessions';
import { keepThreadsFresh, navigateToThread, readOpenedSession, threadItemAttributes, threadRowLabels } from '@lousho/demo-agent';

interface ThreadSidebarProps {
  /** The chat's own source: the list reads the same server (or in-page agent). */
  source: SessionListSource;
  /** What `useLoushoAgent()` returned: the list opens threads in it and follows it. */
  chat: UseLoushoSessionsChat;
}

/**
 * The thread sidebar: the visitor's threads, newest activity first, with where each came from,
 * its state and usage; open, rename, delete, New chat and Load more. The opened thread is in the
 * URL (`?session=`): back and forward switch threads. On a narrow screen it folds behind a button.
 */
export function ThreadSidebar({ source, chat }: ThreadSidebarProps) {
  const threads = useLoushoSessions(source, chat);
  const [shown, setShown] = useState(false);
  const [renaming, setRenaming] = useState<string | undefined>();

  useEffect(() => keepThreadsFresh(threads.refresh), [threads.refresh]);
  // The URL follows the chat (a new thread gets its id on its first message; a deleted one leaves).
  useEffect(() => navigateToThread(chat.sessionId, true), [chat.sessionId]);
  // Back and forward: the thread of the URL.
  useEffect(() => {
    const onPop = (): void => {
      const id = readOpenedSession();
      if (id) void threads.open(id);
      else threads.openNew();
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [threads.open, threads.openNew]);

  const open = (id: string): void => {
    setShown(false);
    if (id === chat.sessionId) return;
    navigateToThread(id);
    void threads.open(id);
  };
  const openNew = (): void => {
    setShown(false);
    navigateToThread(undefined);
    threads.openNew();
  };

  return (
    <div className="thread-sidebar" data-shown={shown}>
      <button type="button" className="thread-toggle button button-small button-ghost" aria-expanded={shown} aria-controls="thread-nav" onClick={() => setShown(!shown)}>
        Threads
      </button>
      <nav id="thread-nav" className="thread-nav" aria-label="Threads" data-testid="thread-sidebar">
        <button type="button" className="thread-new button button-small" onClick={openNew}>
          New chat
        </button>
        {threads.error ? (
          <p className="thread-error" role="alert" data-code={threads.error.code}>
            {threads.error.message}
          </p>
        ) : null}
        <ul className="thread-list">
          {threads.sessions.map((thread) => (
            <li key={thread.id} className="thread-row">
              {renaming === thread.id ? (
                <RenameForm thread={thread} onDone={(title) => (setRenaming(undefined), title === undefined ? undefined : void threads.rename(thread.id, title))} />
              ) : (
                <ThreadRow thread={thread} current={chat.sessionId} onOpen={() => open(thread.id)} onRename={() => setRenaming(thread.id)} onDelete={() => void threads.remove(thread.id)} />
              )}
            </li>
          ))}
        </ul>
        {threads.hasMore ? (
          <button type="button" className="thread-more button button-small button-ghost" onClick={() => void threads.loadMore()}>
            Load more
          </button>
        ) : null}
      </nav>
    </div>
  );
}

interface ThreadRowProps {
  thread: SessionSummary;
  current: string | undefined;
  onOpen: () => void;
  onRename: () => void;
  onDelete: () => void;
}

function ThreadRow({ thread, current, onOpen, onRename, onDelete }: ThreadRowProps) {
  const labels = threadRowLabels(thread);
  const attributes = threadItemAttributes(thread, current);
  return (
    <>
      <button type="button" className="thread-item" {...attributes} onClick={onOpen}>
        <span className="thread-title">{labels.title}</span>
        <span className="thread-meta">
          <span className={`session-origin session-origin-${attributes['data-origin']}`}>{labels.origin}</span>
          <span className={`thread-state thread-state-${thread.status}`}>{labels.state}</span>
          {labels.usage ? <span className="thread-usage">{labels.usage}</span> : null}
        </span>
      </button>
      <span className="thread-actions">
        <button type="button" className="thread-action" aria-label={`Rename “${labels.title}”`} title="Rename" onClick={onRename}>
          ✎
        </button>
        <button type="button" className="thread-action" aria-label={`Delete “${labels.title}”`} title="Delete" onClick={onDelete}>
          ✕
        </button>
      </span>
    </>
  );
}

/** Renames in place: Enter or Save keeps the title, Escape or Cancel leaves it. */
function RenameForm({ thread, onDone }: { thread: SessionSummary; onDone: (title: string | undefined) => void }) {
  const [title, setTitle] = useState(threadRowLabels(thread).title);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    onDone(title.trim() ? title : undefined);
  };
  return (
    <form className="thread-rename" onSubmit={submit} onKeyDown={(event) => event.key === 'Escape' && onDone(undefined)}>
      <input aria-label="Thread title" value={title} maxLength={100} autoFocus onChange={(event) => setTitle(event.target.value)} />
      <button type="submit" className="button button-small">
        Save
      </button>
      <button type="button" className="button button-small button-ghost" onClick={() => onDone(undefined)}>
        Cancel
      </button>
    </form>
  );
}
