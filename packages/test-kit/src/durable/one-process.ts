/** Helpers of the durable tests that run their agents in the test's own process (SQLite and PostgreSQL). */
import { z } from 'zod';
import { createAgent, defineTool, type Message } from '@lousho/core';
import { scriptedProvider } from './scripted-agent.js';

/** A promise and the function that resolves it. */
export function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** The scripted `work` tool, recording each call's id in `ran`; `hang` makes chosen calls wait for a gate (a process that is about to die). */
export function recordingWorkTool(ran: string[], hang?: { ids: Set<string>; until: Promise<void> }) {
  return defineTool({
    name: 'work',
    description: 'Does one part of the job',
    input: z.object({ turn: z.number(), part: z.number() }),
    async execute({ turn, part }, ctx) {
      if (hang?.ids.has(ctx.toolCallId)) await hang.until;
      ran.push(ctx.toolCallId);
      return `w${turn}.${part}`;
    },
  });
}

/** Polls `check` until it holds; throws after `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The transcript of the scripted job run start to end, without a store: what a resumed run must end with. */
export async function referenceTranscript(): Promise<Message[]> {
  return (await createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool([])], maxSteps: 50 }).send('Start the job', { sessionId: 'ref' })).messages;
}
