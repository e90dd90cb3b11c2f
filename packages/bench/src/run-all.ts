import { runCheckpointBench } from './checkpoint.bench.js';
import { runClientPipelineBench } from './client-pipeline.bench.js';
import { runLoopBench } from './loop.bench.js';
import { runPostgresLoadBench } from './postgres-load.bench.js';
import { runSessionListBench } from './session-list.bench.js';
import { runRenderBench } from './render.bench.js';
import { runPacedServerBench } from './paced-server.bench.js';
import { runServerLoadBench } from './server-load.bench.js';
import { runShellParserBench } from './shell-parser.bench.js';
import { runTracingBench } from './tracing.bench.js';
import { runUntrustedInputBench } from './untrusted-input.bench.js';
import { writeBenchmarksDoc } from './write-report.js';
import { assertBuilt } from './load/built.js';

// Each benchmark prints its own table; this only sequences them and writes docs/benchmarks.md.
// Lousho runs from its build, as the AI SDK does from its published one.
assertBuilt();
await runLoopBench();
await runTracingBench();
await runClientPipelineBench();
await runCheckpointBench();
await runServerLoadBench();
await runPacedServerBench();
// Skipped, with a line saying why, when there is no PostgreSQL (DATABASE_URL or installed binaries).
await runPostgresLoadBench();
// SQLite always; PostgreSQL when DATABASE_URL is set.
await runSessionListBench();
await runRenderBench();
await runShellParserBench();
await runUntrustedInputBench();
writeBenchmarksDoc();
