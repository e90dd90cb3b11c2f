import { runCheckpointBench } from './checkpoint.bench.js';
import { runClientPipelineBench } from './client-pipeline.bench.js';
import { runLoopBench } from './loop.bench.js';

// Each benchmark prints its own table; this only sequences them.
await runLoopBench();
await runClientPipelineBench();
await runCheckpointBench();
