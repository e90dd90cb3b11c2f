import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import type { AgentUIStatus, UIMessage, UIPart } from '@lousho/build-ai-agent';
import { ToolCard } from './ToolCard.tsx';

interface MessageListProps {
  messages: readonly UIMessage[];
  busy: boolean;
  status: AgentUIStatus;
}

/** The transcript; keeps the newest content in view unless the reader scrolled up. */
export function MessageList({ messages, busy, status }: MessageListProps) {
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
        <MessageRow key={message.id} message={message} streaming={busy && message === last && message.role === 'assistant'} />
      ))}
      {status === 'aborted' ? (
        <div className="run-note" data-testid="run-note">
          You stopped this reply.
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
const MessageRow = memo(function MessageRow({ message, streaming }: { message: UIMessage; streaming: boolean }) {
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
          />
        ))}
      </div>
    </div>
  );
});

function Part({ part, isUser, streaming }: { part: UIPart; isUser: boolean; streaming: boolean }) {
  switch (part.type) {
    case 'text':
      // Text nodes only: React escapes it, so model text can never become HTML.
      return part.text ? (
        <div className={isUser ? 'bubble bubble-user' : 'bubble'}>
          <span data-testid="text">{part.text}</span>
          {streaming ? <span className="caret" aria-hidden="true" /> : null}
        </div>
      ) : null;
    case 'reasoning':
      return (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <div className="reasoning-text">{part.text}</div>
        </details>
      );
    case 'compaction':
      return <CompactionDivider />;
    case 'tool':
      return <ToolCard part={part} />;
    case 'image':
      return <div className="attachment">Image{part.mimeType ? ` (${part.mimeType})` : ''}</div>;
    case 'file':
      return <div className="attachment">File {part.filename ?? ''}</div>;
    default:
      return null;
  }
}

/** Where the agent shortened earlier tool results to fit the model's context window: a quiet note, not a message. */
export const COMPACTION_NOTE = "Earlier tool results were shortened to fit the model's context.";

function CompactionDivider() {
  return (
    <div className="compaction-divider" role="separator" data-testid="compaction">
      <span>{COMPACTION_NOTE}</span>
    </div>
  );
}
