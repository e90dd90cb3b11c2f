import { createAgent, defineTool, SubprocessSandbox } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const countLines = defineTool({
  name: 'count_lines',
  description: 'Count the lines of a text with wc -l',
  input: z.object({ text: z.string() }),
  requiresSandbox: true,
  // defineTool() needs an execute (it types the result); with requiresSandbox it is never called.
  execute: async (): Promise<{ lines: number }> => {
    throw new Error('count_lines only runs in a sandbox');
  },
  async sandboxExecute({ text }, sandbox) {
    const { stdout } = await sandbox.exec!(['wc', '-l'], { stdin: text });
    return { lines: Number(stdout.trim()) };
  },
});

export const sandbox = new SubprocessSandbox({ cwd: '/tmp', timeoutMs: 30_000 });
const agent = createAgent({
  provider: mockModel([{ toolCalls: [{ name: 'count_lines', args: { text: 'a\nb\nc\n' } }] }, 'Three lines.']),
  tools: [countLines],
  sandbox,
});

export const result = await agent.send('How many lines?');
await sandbox.dispose();
