import { createServer, type RequestListener } from 'node:http';

/**
 * Serves `listener` on 127.0.0.1 (a free port) from a benchmark's child process: sends `{ port }`
 * to the parent over IPC once listening, and answers `'cpu'` with this process's CPU time and heap,
 * so the parent can tell server cost from load-generator cost.
 */
export function serveToParent(listener: RequestListener): void {
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
    }
  });
}
