import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { abortError, throwIfAborted } from '@lousho/providers';
import type { GenerateOptions, LLMProvider, StreamChunk } from '@lousho/protocol';

/** What a cassette keeps of a request: everything the model is sent, except the signal. */
export type RecordedRequest = Omit<GenerateOptions, 'signal'>;

/** One model call: the request, and the chunks the model streamed (or the error it failed with). */
export interface CassetteInteraction {
  request: RecordedRequest;
  chunks: StreamChunk[];
  /** Set when the call failed after `chunks`: the error as it was thrown (name, message, code). */
  error?: { name: string; message: string; code?: string };
}

/** A cassette file's content. */
export interface Cassette {
  version: 1;
  provider: { name: string; defaultModel?: string };
  interactions: CassetteInteraction[];
}

/** Where a cassette lives: a JSON file path (Node), or your own load/save (e.g. a fixture in memory). */
export type CassetteLocation =
  | string
  | {
      /**
       * The cassette, or undefined when none was recorded yet (`auto` then records). Called when the
       * provider is made (a synchronous answer gives its name and model at once), and again before the
       * first model call when it answered with a promise or nothing. Never called in `record` mode.
       */
      load(): Cassette | undefined | Promise<Cassette | undefined>;
      /** Stores the cassette after each recorded call (the whole cassette, replacing the last one). */
      save(cassette: Cassette): void | Promise<void>;
    };

/** Options of `recordReplay()`: the cassette, the mode and the provider to record from. */
export interface RecordReplayOptions {
  /** The real provider: called in `record` mode (and `auto` without a cassette). Not needed to replay. */
  provider?: LLMProvider;
  cassette: CassetteLocation;
  /**
   * `record`: call the provider and write every call to the cassette (replacing it);
   * `replay`: never call the provider, answer from the cassette, fail on a request it does not hold;
   * `auto` (default): replay when the cassette exists, record when it does not.
   */
  mode?: 'record' | 'replay' | 'auto';
  /** Text that must never be written (keys, tokens, emails): replaced by `[redacted]` everywhere in the cassette. */
  redact?: readonly (string | RegExp)[];
  /** What of a request is compared on replay (default: all of it). E.g. drop a field that changes every run. */
  normalize?: (request: RecordedRequest) => unknown;
}

/**
 * A VCR provider for tests: records a real provider's requests and streamed responses to a JSON
 * cassette, then serves them back chunk for chunk, so a test of a multi-step tool run is fast,
 * offline and deterministic. On replay a request must equal a recorded one (its first unused match,
 * so concurrent calls may come in any order); one that differs fails with a readable diff against
 * the recorded request it was expected to be. A cassette never holds headers or credentials (the
 * provider boundary has none), and `redact` removes anything else that must not be committed.
 */
export function recordReplay(options: RecordReplayOptions): RecordReplayProvider {
  return new RecordReplayProvider(options);
}

export class RecordReplayProvider implements LLMProvider {
  readonly name: string;
  readonly defaultModel: string | undefined;
  readonly #options: RecordReplayOptions;
  #state: Promise<{ mode: 'record' | 'replay'; cassette: Cassette; used: boolean[] }> | undefined;
  #writes: Promise<void> = Promise.resolve();

  constructor(options: RecordReplayOptions) {
    if (!options || (typeof options.cassette !== 'string' && (typeof options.cassette?.load !== 'function' || typeof options.cassette.save !== 'function'))) {
      throw invalid('recordReplay needs a cassette: a file path, or { load, save }.');
    }
    const mode = options.mode ?? 'auto';
    if (!['record', 'replay', 'auto'].includes(mode)) throw invalid(`recordReplay: unknown mode '${String(mode)}' (use 'record', 'replay' or 'auto').`);
    if (mode === 'record' && !options.provider) throw invalid("recordReplay: mode 'record' needs the real provider.");
    this.#options = options;
    // The agent reads the provider's name and default model when a run starts, before any call:
    // a cassette that can be read now (a file in Node, a synchronous load) gives them on replay.
    const now = mode === 'record' ? undefined : loadCassetteNow(options.cassette);
    if (now) this.#state = Promise.resolve({ mode: 'replay' as const, cassette: now, used: now.interactions.map(() => false) });
    this.name = now?.provider.name ?? options.provider?.name ?? 'replay';
    this.defaultModel = now ? now.provider.defaultModel : options.provider?.defaultModel;
  }

  /** The mode in use once the first call decided it (`auto` resolves to `record` or `replay`). */
  async mode(): Promise<'record' | 'replay'> {
    return (await this.#open()).mode;
  }

  /** Resolves when every recorded interaction has been written. */
  flushed(): Promise<void> {
    return this.#writes;
  }

  async *stream(options: GenerateOptions): AsyncGenerator<StreamChunk> {
    throwIfAborted(options.signal);
    const state = await this.#open();
    const { signal, ...rest } = options;
    const request = this.#redacted(structuredClone(rest)) as RecordedRequest;
    if (state.mode === 'replay') {
      const interaction = this.#match(state, request);
      for (const chunk of interaction.chunks) {
        if (signal?.aborted) throw abortError(signal.reason);
        yield structuredClone(chunk);
      }
      if (interaction.error) throw Object.assign(new Error(interaction.error.message), { name: interaction.error.name, ...(interaction.error.code ? { code: interaction.error.code } : {}) });
      return;
    }
    const recorded: CassetteInteraction = { request, chunks: [] };
    state.cassette.interactions.push(recorded);
    try {
      for await (const chunk of this.#options.provider!.stream(options)) {
        recorded.chunks.push(structuredClone(chunk));
        yield chunk;
      }
    } catch (error) {
      // An abort is the caller's doing, not the model's answer: nothing to replay.
      if (signal?.aborted) state.cassette.interactions.splice(state.cassette.interactions.indexOf(recorded), 1);
      else {
        const e = error as { name?: unknown; message?: unknown; code?: unknown };
        recorded.error = this.#redacted({
          name: typeof e?.name === 'string' ? e.name : 'Error',
          message: typeof e?.message === 'string' ? e.message : String(error),
          ...(typeof e?.code === 'string' ? { code: e.code } : {}),
        }) as CassetteInteraction['error'];
      }
      throw error;
    } finally {
      recorded.chunks = this.#redactedChunks(recorded.chunks);
      this.#save(state.cassette);
    }
  }

  /**
   * Chunks as they were streamed, redacted. A secret split over several deltas would survive
   * redaction chunk by chunk, so a run of deltas whose joined text holds one is written as one chunk.
   */
  #redactedChunks(chunks: StreamChunk[]): StreamChunk[] {
    if ((this.#options.redact ?? []).length === 0) return chunks;
    const out: StreamChunk[] = [];
    let run: StreamChunk[] = [];
    const textOf = (c: StreamChunk) => (c.type === 'text-delta' || c.type === 'reasoning-delta' ? c.text : c.type === 'tool-call-delta' ? c.argumentsDelta : undefined);
    const sameRun = (a: StreamChunk, b: StreamChunk) => a.type === b.type && (a.type !== 'tool-call-delta' || (b.type === 'tool-call-delta' && a.index === b.index));
    const flush = () => {
      if (run.length === 0) return;
      const joined = run.map((c) => textOf(c)!).join('');
      const each = run.map((c) => this.#redacted(c));
      if (this.#redacted(joined) === each.map((c) => textOf(c)!).join('')) out.push(...each);
      else {
        const first = run[0]!;
        out.push(first.type === 'tool-call-delta' ? { ...first, argumentsDelta: this.#redacted(joined) } : { ...(first as Extract<StreamChunk, { text: string }>), text: this.#redacted(joined) });
      }
      run = [];
    };
    for (const chunk of chunks) {
      if (textOf(chunk) === undefined) {
        flush();
        out.push(this.#redacted(chunk));
      } else {
        if (run.length > 0 && !sameRun(run[0]!, chunk)) flush();
        run.push(chunk);
      }
    }
    flush();
    return out;
  }

  #open() {
    this.#state ??= (async () => {
      const location = this.#options.cassette;
      const mode = this.#options.mode ?? 'auto';
      const existing = mode === 'record' ? undefined : await loadCassette(location);
      if (mode === 'replay' && !existing) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `recordReplay: no cassette at ${describe(location)} to replay.`, { hint: "Record it first (mode 'record' or 'auto' with the real provider)." });
      if (existing) return { mode: 'replay' as const, cassette: existing, used: existing.interactions.map(() => false) };
      if (!this.#options.provider) throw invalid(`recordReplay: there is no cassette at ${describe(location)} and no provider to record one with.`);
      const provider = this.#options.provider;
      return { mode: 'record' as const, cassette: { version: 1 as const, provider: { name: provider.name, ...(provider.defaultModel ? { defaultModel: provider.defaultModel } : {}) }, interactions: [] }, used: [] };
    })();
    return this.#state;
  }

  #match(state: { cassette: Cassette; used: boolean[] }, request: RecordedRequest): CassetteInteraction {
    const normalize = this.#options.normalize ?? ((r: RecordedRequest) => r);
    const wanted = stableJson(normalize(request));
    const { interactions } = state.cassette;
    for (let i = 0; i < interactions.length; i++) {
      if (!state.used[i] && stableJson(normalize(interactions[i]!.request)) === wanted) {
        state.used[i] = true;
        return interactions[i]!;
      }
    }
    const next = state.used.indexOf(false);
    if (next === -1) {
      throw new SDKError(ERROR_CODES.LOUSHO_CASSETTE_EXHAUSTED, `recordReplay: the model was called ${interactions.length + 1} times, but the cassette holds ${interactions.length} calls.`, {
        hint: 'The code under test makes more model calls than when the cassette was recorded: record it again.',
      });
    }
    const diff = jsonDiff(stableJson(normalize(interactions[next]!.request), 2), stableJson(normalize(request), 2));
    throw new SDKError(ERROR_CODES.LOUSHO_CASSETTE_MISMATCH, `recordReplay: model call ${next + 1} differs from the recorded one (- recorded, + now):\n${diff}`, {
      hint: 'The request changed since the cassette was recorded: record it again, or normalize away what changes every run.',
    });
  }

  #save(cassette: Cassette): void {
    const snapshot = structuredClone(cassette);
    this.#writes = this.#writes.then(() => saveCassette(this.#options.cassette, snapshot));
    this.#writes.catch(() => {});
  }

  #redacted<T>(value: T): T {
    const patterns = this.#options.redact ?? [];
    if (patterns.length === 0) return value;
    return JSON.parse(
      JSON.stringify(value, (_key, v: unknown) => {
        if (typeof v !== 'string') return v;
        let out = v;
        for (const p of patterns) out = typeof p === 'string' ? (p ? out.split(p).join('[redacted]') : out) : out.replace(new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`), '[redacted]');
        return out;
      }),
    ) as T;
  }
}

/** Node's `fs`, reached without an import so that this module bundles for browsers too. */
function nodeFs(): typeof import('node:fs') {
  const fs = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:fs') as typeof import('node:fs') | undefined;
  if (!fs) throw invalid('recordReplay: a cassette file path needs Node 20.16 or later; elsewhere pass { load, save }.');
  return fs;
}

/** The cassette when it can be read synchronously (a file, a sync `load`); else undefined. */
function loadCassetteNow(location: CassetteLocation): Cassette | undefined {
  if (typeof location !== 'string') {
    const loaded = location.load();
    return loaded instanceof Promise || loaded === undefined ? undefined : checkCassette(loaded, location);
  }
  const fs = nodeFs();
  if (!fs.existsSync(location)) return undefined;
  return parseCassette(fs.readFileSync(location, 'utf8'), location);
}

function parseCassette(text: string, location: string): Cassette {
  let cassette: unknown;
  try {
    cassette = JSON.parse(text);
  } catch {
    throw invalid(`recordReplay: the cassette ${location} is not valid JSON.`);
  }
  return checkCassette(cassette, location);
}

function checkCassette(cassette: unknown, location: CassetteLocation): Cassette {
  const c = cassette as Partial<Cassette>;
  if (c?.version !== 1 || !Array.isArray(c.interactions) || typeof c.provider?.name !== 'string') throw invalid(`recordReplay: ${describe(location)} is not a version-1 cassette.`);
  return c as Cassette;
}

async function loadCassette(location: CassetteLocation): Promise<Cassette | undefined> {
  if (typeof location === 'string') return loadCassetteNow(location);
  const cassette = await location.load();
  return cassette === undefined ? undefined : checkCassette(cassette, location);
}

/** Written whole to a temporary file and renamed over the cassette, so a crash never leaves half of one. */
async function saveCassette(location: CassetteLocation, cassette: Cassette): Promise<void> {
  if (typeof location !== 'string') return void (await location.save(cassette));
  const fs = nodeFs();
  const dir = location.slice(0, Math.max(location.lastIndexOf('/'), location.lastIndexOf('\\')));
  if (dir) fs.mkdirSync(dir, { recursive: true });
  const temp = `${location}.${Date.now().toString(36)}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(cassette, null, 2)}\n`, 'utf8');
  fs.renameSync(temp, location);
}

function describe(location: CassetteLocation): string {
  return typeof location === 'string' ? location : 'the given location';
}

function invalid(message: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, message, { hint: "recordReplay({ provider, cassette: 'test/cassettes/name.json', mode: 'auto' })" });
}

/** JSON with object keys sorted, so two equal requests always print the same. */
function stableJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v), indent);
}

/** A line diff of two texts (longest common subsequence), with a few lines of context around changes. */
function jsonDiff(before: string, after: string, context = 3): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const lines: { mark: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i++]! });
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) lines.push({ mark: '-', text: a[i++]! });
    else lines.push({ mark: '+', text: b[j++]! });
  }
  const keep = lines.map((line, k) => lines.slice(Math.max(0, k - context), k + context + 1).some((l) => l.mark !== ' '));
  const out: string[] = [];
  lines.forEach((line, k) => {
    if (keep[k]) out.push(`${line.mark} ${line.text}`);
    else if (keep[k - 1]) out.push('  ...');
  });
  return out.join('\n');
}
