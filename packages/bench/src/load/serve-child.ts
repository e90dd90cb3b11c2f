import { createServer, type RequestListener } from 'node:http';

/** Extra questions a benchmark server's parent may ask it, by message: each answers with a value sent back over IPC. */
export type ChildQuestions = Record<string, () => unknown>;

/**
 * Serves `listener` on 127.0.0.1 (a free port) from a benchmark's child process: sends `{ port }`
 * to the parent over IPC once listening, and answers `'cpu'` with this process's CPU time and heap,
 * so the parent can tell server cost from load-generator cost; `'heap'` with the heap after a full
 * collection (with --expose-gc), and any of `questions`.
 */
export function serveToParent(listener: RequestListener, questions: ChildQuestions = {}): void {
  const server = createServer(listener);
  server.keepAliveTimeout = 1000;
  server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (message) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMs: (user + system) / 1000, heapUsed: process.memoryUsage().heapUsed });
    } else if (message === 'heap') {
      (globalThis as { gc?: () => void }).gc?.();
      process.send?.({ heapUsed: process.memoryUsage().heapUsed });
    } else if (typeof message === 'string' && Object.hasOwn(questions, message)) {
      process.send?.(questions[message]!());
    }
  });
}
