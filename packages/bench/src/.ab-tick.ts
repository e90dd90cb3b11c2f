import { startChild } from './load/children.js';
import { runLoad } from './load/load-client.js';
const kinds = (process.argv[2] ?? 'lousho,lousho-nowindow,http-floor').split(',');
const pace = process.argv[3] ?? 'tick';
const sessions = Number(process.argv[4] ?? 200);
const deltas = Number(process.argv[5] ?? 500);
const rounds = Number(process.argv[6] ?? 3);
const res = new Map<string, number[]>(kinds.map((k) => [k, []]));
for (let r = 0; r < rounds; r++) for (const kind of r % 2 ? [...kinds].reverse() : kinds) {
  const server = startChild('./server.ts', [kind, pace, String(deltas)]);
  try {
    const { port } = await server.ask<{ port: number }>(undefined, 180000);
    const wire = kind.startsWith('ai') ? 'ai-sdk' : 'lousho';
    await runLoad({ port, wire, sessions: 50, deadlineMs: 120000, label: 'w', deltas });
    await runLoad({ port, wire, sessions, deadlineMs: 120000, label: 'w2', deltas });
    const b = await server.ask<{ cpuMs: number }>('cpu');
    const load = await runLoad({ port, wire, sessions, deadlineMs: 120000, label: 'l', deltas });
    const a = await server.ask<{ cpuMs: number }>('cpu');
    const per = ((a.cpuMs - b.cpuMs) * 1000) / load.events;
    res.get(kind)!.push(per);
    console.log(`round ${r} ${kind}: ${per.toFixed(2)} µs/event, ${load.failed} failed, ${(load.wireBytes / load.events).toFixed(1)} B/event`);
  } finally { await server.stop(); }
}
for (const [k, v] of res) console.log(k, 'median', [...v].sort((a, b) => a - b)[v.length >> 1]!.toFixed(2));
