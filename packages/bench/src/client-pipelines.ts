/**
 * The client pipelines and the replies they are measured on, shared by the client pipeline benchmark
 * (client-pipeline.bench.ts), its peak-heap child (load/client-heap.ts) and the A/B scripts
 * (client-ab.ts, client-split.ts): each reply in both wire formats (Lousho's and the AI SDK's), the
 * bytes cut into reads, and each pipeline from bytes to its final state.
 */
import { createHttpAgentClient, createSseEventEncoder, encodeSseVersion, type AgentStreamEvent, type AgentUIState } from '@lousho/build-ai-agent';
import { median } from './stats.js';

/**
 * Bytes of one frame for a 4-character text delta in the middle of a stream, each library as its
 * server writes it: Lousho's v2 frame (`id:` with a 6-digit seq) and the AI SDK's `text-delta` chunk
 * (its text part ids are short, `"0"` here; real ones are longer).
 */
export function wireDeltaBytes(): { lousho: number; aiSdk: number } {
  const encode = createSseEventEncoder();
  const base = { runId: 'run_feb9d9f8e18c4b659954', sessionId: 'sess_0f3c5d2a9b8e4f1c8a7d6e5b4c3a2f10' };
  encode({ type: 'step.start', step: 1, seq: 123_455, ...base } as AgentStreamEvent);
  const lousho = encode({ type: 'text.delta', step: 1, delta: 'Hel ', seq: 123_456, ...base } as AgentStreamEvent);
  const aiSdk = `data: ${JSON.stringify({ type: 'text-delta', id: '0', delta: 'Hel ' })}\n\n`;
  return { lousho: Buffer.byteLength(lousho), aiSdk: Buffer.byteLength(aiSdk) };
}

type Json = Record<string, unknown>;

/** One logical reply, in both wire formats. */
export interface Scenario {
  name: string;
  deltas: number;
  lousho: string;
  /** The events behind `lousho` (client-ab.ts encodes them with each build's own encoder). */
  events: readonly AgentStreamEvent[];
  aiSdk: string;
  /** What every pipeline must end with (checked, so no pipeline can skip work). */
  text: string;
  toolCalls: number;
}

/** The optional comparison libraries; injected by a runner, or imported when installed. */
export interface ClientPipelineBenchDeps {
  /** `eventsource-parser` (the floor). */
  eventsourceParser?: { createParser: (callbacks: { onEvent: (event: { data: string }) => void }) => { feed(text: string): void } };
  /** The `ai` package. */
  ai?: any;
}

const URL_BASE = 'http://bench.invalid/agent';

function wordOf(i: number): string {
  return `w${i % 1000} `;
}
const word = wordOf;

/** Two CJK ideographs outside the Basic Multilingual Plane: 4 bytes each in UTF-8, a surrogate pair each in JS. */
function cjkWord(i: number): string {
  return String.fromCodePoint(0x20000 + (i % 5000), 0x20000 + ((i * 7) % 5000));
}

/** (a) One reply of `count` text deltas (`cjk`: of 4-byte UTF-8 characters). */
export function longReply(count: number, cjk = false): Scenario {
  const word = cjk ? cjkWord : wordOf;
  const runId = 'run_1';
  let seq = 0;
  const events: AgentStreamEvent[] = [];
  const push = (event: Record<string, unknown>): void => void events.push({ ...event, seq: ++seq, runId } as unknown as AgentStreamEvent);
  push({ type: 'run.start', model: 'bench' });
  push({ type: 'user.message', message: { role: 'user', content: 'Write a long reply.' } });
  push({ type: 'step.start', step: 1 });
  const chunks: Json[] = [{ type: 'start', messageId: 'msg_1' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }];
  let text = '';
  for (let i = 0; i < count; i++) {
    const delta = word(i);
    text += delta;
    push({ type: 'text.delta', step: 1, delta });
    chunks.push({ type: 'text-delta', id: 't1', delta });
  }
  const usage = { inputTokens: 10, outputTokens: count, totalTokens: 10 + count, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 10, completionTokens: count };
  push({ type: 'step.done', step: 1, finishReason: 'stop', usage, stepUsage: { step: 1, model: 'bench', usage, estimated: false } });
  push({ type: 'run.done', finishReason: 'stop', usage, text: '', steps: 1 });
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish', finishReason: 'stop' });
  return { name: `(a${cjk ? "'" : ''}) one reply, ${count.toLocaleString('en-US')} text deltas${cjk ? ' of CJK text (4-byte UTF-8)' : ''}`, deltas: count, lousho: loushoWire(events), events, aiSdk: aiSdkWire(chunks), text, toolCalls: 0 };
}

/** (b) A 20-step run: per step 20 text deltas, then 5 tool calls with streamed arguments and results. */
export function toolRun(steps = 20, callsPerStep = 5, textDeltas = 20, argDeltas = 5): Scenario {
  const runId = 'run_1';
  let seq = 0;
  const events: AgentStreamEvent[] = [];
  const push = (event: Record<string, unknown>): void => void events.push({ ...event, seq: ++seq, runId } as unknown as AgentStreamEvent);
  const chunks: Json[] = [{ type: 'start', messageId: 'msg_1' }];
  push({ type: 'run.start', model: 'bench' });
  push({ type: 'user.message', message: { role: 'user', content: 'Run the tools.' } });
  let text = '';
  let deltas = 0;
  const usage = { inputTokens: 10, outputTokens: 10, totalTokens: 20, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 10, completionTokens: 10 };
  for (let step = 1; step <= steps; step++) {
    push({ type: 'step.start', step });
    chunks.push({ type: 'start-step' }, { type: 'text-start', id: `t${step}` });
    for (let i = 0; i < textDeltas; i++) {
      const delta = word(i);
      text += delta;
      deltas++;
      push({ type: 'text.delta', step, delta });
      chunks.push({ type: 'text-delta', id: `t${step}`, delta });
    }
    chunks.push({ type: 'text-end', id: `t${step}` });
    for (let c = 0; c < callsPerStep; c++) {
      const toolCallId = `call_${step}_${c}`;
      const args = { query: `question ${step}.${c}`, limit: 10 };
      const argsText = JSON.stringify(args);
      push({ type: 'tool.input.start', step, toolCallId, toolName: 'search', displayName: 'Search' });
      chunks.push({ type: 'tool-input-start', toolCallId, toolName: 'search' });
      const size = Math.ceil(argsText.length / argDeltas);
      for (let i = 0; i < argDeltas; i++) {
        const delta = argsText.slice(i * size, (i + 1) * size);
        deltas++;
        push({ type: 'tool.input.delta', toolCallId, delta });
        chunks.push({ type: 'tool-input-delta', toolCallId, inputTextDelta: delta });
      }
      push({ type: 'tool.call', step, toolCallId, toolName: 'search', displayName: 'Search', args });
      chunks.push({ type: 'tool-input-available', toolCallId, toolName: 'search', input: args });
      const result = { hits: [`result ${step}.${c}.1`, `result ${step}.${c}.2`] };
      push({ type: 'tool.done', toolCallId, toolName: 'search', result });
      chunks.push({ type: 'tool-output-available', toolCallId, output: result });
    }
    push({ type: 'step.done', step, finishReason: step < steps ? 'tool_calls' : 'stop', usage, stepUsage: { step, model: 'bench', usage, estimated: false } });
    chunks.push({ type: 'finish-step' });
  }
  push({ type: 'run.done', finishReason: 'stop', usage, text: '', steps });
  chunks.push({ type: 'finish', finishReason: 'stop' });
  return { name: `(b) ${steps} steps × ${callsPerStep} tool calls`, deltas, lousho: loushoWire(events), events, aiSdk: aiSdkWire(chunks), text, toolCalls: steps * callsPerStep };
}

/** The stream as the handler writes it (protocol v2: one encoder per stream, saying once what does not change). */
export function loushoWire(events: readonly AgentStreamEvent[], encoder: typeof createSseEventEncoder = createSseEventEncoder, version: typeof encodeSseVersion = encodeSseVersion): string {
  const encode = encoder();
  let wire = version();
  for (const event of events) wire += encode(event);
  return wire;
}

/** The AI SDK's UI message stream as its server helpers write it: `data: <json>` frames, then `[DONE]`. */
function aiSdkWire(chunks: readonly Json[]): string {
  let wire = '';
  for (const chunk of chunks) wire += `data: ${JSON.stringify(chunk)}\n\n`;
  return `${wire}data: [DONE]\n\n`;
}

export function chunked(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Called on every read of a body (the peak-heap measurement samples the heap there). */
let onRead: (() => void) | undefined;
export function sampleOnEveryRead(sample: (() => void) | undefined): void {
  onRead = sample;
}

/** A body that hands out one chunk per read, as a network stream does. */
export function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      onRead?.();
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

const sseResponse = (chunks: readonly Uint8Array[]): Response => new Response(bodyOf(chunks), { headers: { 'content-type': 'text/event-stream' } });

// ---- the pipelines: each returns what it ended with, for the check ----

export interface Outcome {
  text: string;
  toolCalls: number;
}

/** `create`: this tree's `createHttpAgentClient`, or another build's (client-ab.ts compares builds). */
export async function loushoClient(chunks: readonly Uint8Array[], create: typeof createHttpAgentClient = createHttpAgentClient): Promise<Outcome> {
  const client = create({ url: URL_BASE, fetch: async () => sseResponse(chunks) });
  const result = await client.send('go');
  if (!result.ok) throw new Error(`Lousho client failed: ${result.error.code} ${result.error.message}`);
  return outcomeOfLousho(client.getSnapshot());
}

function outcomeOfLousho(state: AgentUIState): Outcome {
  let text = '';
  let toolCalls = 0;
  for (const message of state.messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) {
      if (part.type === 'text') text += part.text;
      else if (part.type === 'tool' && part.state === 'done') toolCalls++;
    }
  }
  return { text, toolCalls };
}

/** The floor: bytes → text → SSE events → JSON values, nothing kept. */
export async function floor(chunks: readonly Uint8Array[], parser: NonNullable<ClientPipelineBenchDeps['eventsourceParser']>): Promise<number> {
  let count = 0;
  const sse = parser.createParser({
    onEvent(event) {
      // (The AI SDK's stream ends with a `[DONE]` frame, which is not JSON.)
      if (event.data !== '[DONE]') JSON.parse(event.data);
      count++;
    },
  });
  const decoder = new TextDecoder();
  const reader = bodyOf(chunks).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    sse.feed(decoder.decode(value, { stream: true }));
  }
  return count;
}

function outcomeOfAiMessage(message: { parts: { type: string; text?: string; state?: string }[] } | undefined): Outcome {
  let text = '';
  let toolCalls = 0;
  for (const part of message?.parts ?? []) {
    if (part.type === 'text') text += part.text;
    else if (part.type.startsWith('tool-') && part.state === 'output-available') toolCalls++;
  }
  return { text, toolCalls };
}

/** `parseJsonEventStream` + `readUIMessageStream`: the AI SDK's documented client pipeline. */
export async function aiSdkRead(chunks: readonly Uint8Array[], ai: any): Promise<Outcome> {
  const parsed: ReadableStream<unknown> = ai.parseJsonEventStream({ stream: bodyOf(chunks), schema: ai.uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, unknown>({
      transform(result, controller) {
        if (!result.success) throw result.error;
        controller.enqueue(result.value);
      },
    }),
  );
  let last: any;
  for await (const message of ai.readUIMessageStream({ stream: parsed })) last = message;
  return outcomeOfAiMessage(last);
}

/** A chat state that keeps what it is given (the UI bindings also copy each message: slower). */
function plainChatState(): any {
  return {
    status: 'ready',
    error: undefined,
    messages: [] as unknown[],
    pushMessage(message: unknown) {
      this.messages = this.messages.concat(message);
    },
    popMessage() {
      this.messages = this.messages.slice(0, -1);
    },
    replaceMessage(index: number, message: unknown) {
      this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)];
    },
    snapshot: <T>(value: T): T => value,
  };
}

/** `AbstractChat` + `DefaultChatTransport` over the same bytes: the AI SDK's chat state path. */
export async function aiSdkChat(chunks: readonly Uint8Array[], ai: any): Promise<Outcome> {
  // AbstractChat is abstract only in its types: a plain subclass is a chat without a UI binding.
  const BenchChat: new (init: Record<string, unknown>) => any = class extends ai.AbstractChat {};
  let failure: unknown;
  const chat = new BenchChat({
    id: 'bench',
    state: plainChatState(),
    transport: new ai.DefaultChatTransport({ api: `${URL_BASE}/chat`, fetch: async () => sseResponse(chunks) }),
    onError: (error: unknown) => {
      failure = error;
    },
  });
  await chat.sendMessage({ text: 'go' });
  if (failure) throw failure;
  const messages = chat.messages as { role: string; parts: { type: string }[] }[];
  return outcomeOfAiMessage(messages.findLast((message) => message.role === 'assistant') as never);
}

// ---- measuring ----

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** A sample shorter than this repeats the pipeline, so timer resolution and noise do not dominate. */
const MIN_SAMPLE_MS = 40;

/**
 * Medians of `runs` samples of each pipeline, taken in turns (A, B, C, A, B, C, ...) so that a
 * burst of load on a shared machine slows all of them alike and the ratios stay fair.
 */
export async function interleavedMedians(runs: number, pipelines: readonly (() => Promise<unknown>)[]): Promise<number[]> {
  const repeats: number[] = [];
  for (const run of pipelines) {
    await run(); // warm-up: JIT, caches
    const once = await timed(run);
    repeats.push(Math.min(100, Math.max(1, Math.ceil(MIN_SAMPLE_MS / Math.max(once, 0.01)))));
  }
  const samples: number[][] = pipelines.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let p = 0; p < pipelines.length; p++) {
      (globalThis as { gc?: () => void }).gc?.();
      const start = performance.now();
      for (let k = 0; k < repeats[p]!; k++) await pipelines[p]!();
      samples[p]!.push((performance.now() - start) / repeats[p]!);
    }
  }
  return samples.map(median);
}

export function check(name: string, got: Outcome, scenario: Scenario): void {
  if (got.text !== scenario.text || got.toolCalls !== scenario.toolCalls) {
    throw new Error(`${name} ended with ${got.text.length} characters and ${got.toolCalls} tool results; expected ${scenario.text.length} and ${scenario.toolCalls}`);
  }
}
