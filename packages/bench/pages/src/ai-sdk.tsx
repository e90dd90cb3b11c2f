/** The rendering benchmark with the AI SDK's useChat (the runner replays the same reply in its wire format). */
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { installHarness, Measured, Transcript, TRANSCRIPT_MESSAGES, type BenchMessage } from './harness.js';

const params = new URLSearchParams(location.search);
const throttle = Number(params.get('throttle') ?? 0);
const initial = (await (await fetch('./fixtures/ai-messages.json')).json()) as UIMessage[];
const transport = new DefaultChatTransport({ api: '/api/chat' });
let latest: ReturnType<typeof useChat> | undefined;

const harness = installHarness({
  messages: () => (latest?.messages ?? []) as readonly BenchMessage[],
  idle: () => latest?.status === 'ready',
  send: (text) => void latest!.sendMessage({ text }),
  transcriptLength: TRANSCRIPT_MESSAGES,
  expectedLength: Number(params.get('expected')),
});

function App() {
  const chat = useChat({ id: 'bench', messages: initial, transport, ...(throttle > 0 ? { experimental_throttle: throttle } : {}) });
  latest = chat;
  useEffect(() => harness.notify());
  return <Transcript messages={chat.messages as readonly BenchMessage[]} />;
}

createRoot(document.getElementById('root')!).render(
  <Measured>
    <App />
  </Measured>,
);
