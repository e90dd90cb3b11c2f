/** The React pages' shared components: one memoized component per message, under a <Profiler>. */
import { memo, Profiler, type ReactNode } from 'react';
import { state, textOf, type BenchMessage } from './harness-core.js';

export { installHarness, TRANSCRIPT_MESSAGES, type BenchMessage } from './harness-core.js';

/** One message. Memoized on the message object: it renders again only if the library hands a new object. */
export const MessageView = memo(function MessageView({ message }: { message: BenchMessage }) {
  state.renders.set(message.id, (state.renders.get(message.id) ?? 0) + 1);
  return (
    <div className={`msg ${message.role}`} data-id={message.id}>
      <b>{message.role}</b>
      <p>{textOf(message)}</p>
    </div>
  );
});

export function Transcript({ messages }: { messages: readonly BenchMessage[] }) {
  return (
    <div>
      {messages.map((message) => (
        <MessageView key={message.id} message={message} />
      ))}
    </div>
  );
}

export function Measured({ children }: { children: ReactNode }) {
  return (
    <Profiler id="chat" onRender={() => void state.commits++}>
      {children}
    </Profiler>
  );
}

