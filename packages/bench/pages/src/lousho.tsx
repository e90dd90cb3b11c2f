/** The rendering benchmark with useLoushoAgent (HTTP source; the runner replays fixed bytes). */
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { useLoushoAgent } from '@lousho/build-ai-agent/react';
import { installHarness, Measured, Transcript, TRANSCRIPT_MESSAGES, type BenchMessage } from './harness.js';

const params = new URLSearchParams(location.search);
let latest: ReturnType<typeof useLoushoAgent> | undefined;

const harness = installHarness({
  messages: () => (latest?.messages ?? []) as readonly BenchMessage[],
  idle: () => latest?.status === 'idle',
  send: (text) => void latest!.send(text),
  transcriptLength: TRANSCRIPT_MESSAGES,
  expectedLength: Number(params.get('expected')),
});

function App() {
  const chat = useLoushoAgent({ url: '/api/lousho', sessionId: 'bench' });
  latest = chat;
  useEffect(() => harness.notify());
  return <Transcript messages={chat.messages as readonly BenchMessage[]} />;
}

createRoot(document.getElementById('root')!).render(
  <Measured>
    <App />
  </Measured>,
);
