import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import type { AgentUIStatus, UIMessage, UIPart } from '@lousho/build-ai-agent';
import { MarkdownText } from './MarkdownText.tsx';
import { compactionNote, interruptedNote } from '@lousho/demo-agent';
import type { Mode } from '../mode.ts';
import { ToolCard } from './ToolCard.tsx';
import { Attachment } from './Attachment.tsx';

interface MessageListProps {
  messages: readonly UIMessage[];
  busy: boolean;
  status: AgentUIStatus;
  /** The last reply was cut (`finishReason: 'interrupted'`) in this mode: a note says by what, and what to do. */
  interrupted?: Mode | undefined;
}

/** The transcript; keeps the newest content in view unless the reader scrolled up. */
export function MessageList({ messages, busy, status, interrupted }: MessageListProps) {
  const end = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  useEffect(() => {
    const scroller = end.current?.closest('.chat-scroll');
    if (!scroller) return;
    const onScroll = (): void => {
      stick.current = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', onScroll);
  }, []);

  useLayoutEffect(() => {
    if (stick.current) end.current?.scrollIntoView({ block: 'end' });
  });

  const last = messages[messages.length - 1];
  const thinking = status === 'submitted' && last?.role !== 'assistant';

  return (
    <div className="messages" aria-live="polite" aria-busy={busy}>
      {messages.map((message) => (
        // Only while text streams: a new run starts 'submitted' before its user message shows, and the previous reply must not flash a caret.
        <MessageRow
          key={message.id}
          message={message}
          streaming={status === 'streaming' && message === last && message.role === 'assistant'}
          cut={status === 'idle' && message === last ? interrupted : undefined}
        />
      ))}
      {status === 'aborted' ? (
        <div className="run-note" data-testid="run-note">
          You stopped this reply.
        </div>
      ) : null}
      {status === 'idle' && interrupted ? (
        <div className="run-note" data-testid="run-note">
          {interruptedNote(interrupted)}
        </div>
      ) : null}
      {thinking ? (
        <div className="message message-assistant" data-testid="thinking">
          <div className="avatar" aria-hidden="true">
            L
          </div>
          <div className="bubble bubble-thinking" aria-label="The agent is thinking">
            <span className="dot" />
            <span className="dot" />
            <span className="dot" />
          </div>
        </div>
      ) : null}
      <div ref={end} />
    </div>
  );
}

/** One message. Memoized: while a reply streams, earlier messages keep their identity and are skipped. */
// `cut`: the reply was cut (`run.interrupted`) in this mode; its unfinished cards say so.
const MessageRow = memo(function MessageRow({ message, streaming, cut }: { message: UIMessage; streaming: boolean; cut?: Mode | undefined }) {
  const isUser = message.role === 'user';
  return (
    <div className={isUser ? 'message message-user' : 'message message-assistant'} data-testid="message" data-role={message.role}>
      {isUser ? null : (
        <div className="avatar" aria-hidden="true">
          L
        </div>
      )}
      <div className="message-body">
        {message.parts.map((part, index) => (
          <Part
            key={part.type === 'tool' ? `${index}:${part.toolCallId}` : index}
            part={part}
            isUser={isUser}
            streaming={streaming && index === message.parts.length - 1}
            cut={cut}
          />
        ))}
      </div>
    </div>
  );
});

function Part({ part, isUser, streaming, cut }: { part: UIPart; isUser: boolean; streaming: boolean; cut: Mode | undefined }) {
  switch (part.type) {
    case 'text':
      // The user's words as text nodes (React escapes them); the agent's as sanitized Markdown.
      if (!part.text) return null;
      return isUser ? (
        <div className="bubble bubble-user">
          <span data-testid="text">{part.text}</span>
        </div>
      ) : (
        <div className="bubble bubble-markdown">
          <MarkdownText text={part.text} streaming={streaming} />
        </div>
      );
    case 'reasoning':
      return (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <div className="reasoning-text">{part.text}</div>
        </details>
      );
    case 'compaction':
      return <CompactionDivider note={compactionNote(part)} />;
    case 'tool':
      return <ToolCard part={part} cut={cut} />;
    case 'image':
      return <div className="attachment">Image{part.mimeType ? ` (${part.mimeType})` : ''}</div>;
    case 'file':
      return <div className="attachment">File {part.filename ?? ''}</div>;
    case 'attachment':
      return (
        <div className="attachments">
          <Attachment part={part} />
        </div>
      );
    default:
      return null;
  }
}

/** Where the agent shortened or summarized older turns to fit the model's context window: a quiet note, not a message. */
function CompactionDivider({ note }: { note: string }) {
  return (
    <div className="compaction-divider" role="separator" data-testid="compaction">
      <span>{note}</span>
    </div>
  );
}
