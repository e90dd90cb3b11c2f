import type { FinishReason } from '@lousho/protocol';
import type { ToolCall } from '@lousho/protocol';
import type { GenerateOptions, LLMProvider } from '@lousho/protocol';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolErrorResult, ToolExecutionContext } from '@lousho/protocol';
import type { RunUsage, StepUsage } from '@lousho/protocol';
import { inputMessagesJson, outputMessagesJson, safeJson, systemInstructionsJson } from './content.js';
import { GEN_AI, LOUSHO_ATTR } from './gen-ai.js';
import type { SpanRef, TraceAttributes, TraceExporter, TraceParent, TraceSpan } from '@lousho/protocol';
import { traceErrorOf } from './with-span.js';

/** What a run needs to trace itself: the exporter, the span to nest under, the agent's identity. */
export interface RunTraceOptions {
  exporter: TraceExporter;
  parent?: TraceSpan;
  agentName?: string;
  agentDescription?: string;
}

/**
 * The run's tracing options from its config: its own exporter, else the one of the run it is nested
 * in (`traceParent`, e.g. a tool's `ctx.trace`); undefined when neither is given (no tracing at all).
 */
export function runTraceOptions(
  exporter: TraceExporter | undefined,
  parent: TraceParent | undefined,
  agent: { name?: string | undefined; description?: string | undefined },
): RunTraceOptions | undefined {
  const use = exporter ?? parent?.exporter;
  if (!use) return undefined;
  return {
    exporter: use,
    ...(parent ? { parent: parent.span } : {}),
    ...(agent.name ? { agentName: agent.name } : {}),
    ...(agent.description ? { agentDescription: agent.description } : {}),
  };
}

/** The part of a run's state the tracer reads (and where it leaves the leg's span for the next leg). */
export interface TracedSnapshot {
  runId: string;
  sessionId: string;
  model: string;
  steps: number;
  usage: RunUsage;
  /** The span of the run's latest leg: a leg that goes on from a pause or a crash links to it. */
  traceSpan?: SpanRef;
}

/** What the tracer reads of the loop's dependencies once the run's config is resolved. */
export interface TracedDeps {
  provider: LLMProvider;
  tools: ToolRegistry;
  system?: string;
  output?: unknown;
}

/** A model call's span. */
export interface ChatTrace {
  /** Called for each streamed chunk; the first one sets the time to first chunk. */
  chunk(): void;
  end(usage: StepUsage, finishReason: string, text: string, toolCalls: readonly ToolCall[]): void;
  fail(error: unknown): void;
  /** The run was stopped during the call; `usage`: what the stopped call cost, as recorded. */
  aborted(usage?: StepUsage): void;
}

const NOOP_CHAT: ChatTrace = Object.freeze({ chunk() {}, end() {}, fail() {}, aborted() {} });

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/**
 * The tracing stage of the loop: one `invoke_agent` span per leg of a run (a new turn, or the
 * continuation after a pause or a crash, which links to the leg before it), a `chat` span per model
 * call and an `execute_tool` span per tool call, each a child of the leg's span (so calls that run
 * in parallel are siblings whatever order they finish in). Names and attributes follow the
 * OpenTelemetry GenAI conventions; prompts, replies and tool data are recorded only when the
 * exporter opts in (`captureContent`).
 */
export class RunTracer {
  readonly #exporter: TraceExporter;
  readonly #span: TraceSpan;
  readonly #content: boolean;
  readonly #tools = new Map<string, TraceSpan>();
  readonly #snapshot: TracedSnapshot;
  readonly #startInput: number;
  readonly #startOutput: number;
  /** The leg's span records nothing (a no-op tracer): no spans are made under it. */
  readonly #noop: boolean;
  /** What a tool gets as `ctx.trace` under a no-op leg span. */
  readonly #legParent: TraceParent;
  #deps: TracedDeps | undefined;
  #chat: ChatSpan | undefined;
  #done = false;

  private constructor(options: RunTraceOptions, snapshot: TracedSnapshot, continuation: boolean) {
    this.#exporter = options.exporter;
    this.#content = options.exporter.captureContent === true;
    this.#snapshot = snapshot;
    this.#startInput = snapshot.usage.inputTokens;
    this.#startOutput = snapshot.usage.outputTokens;
    const link = continuation ? snapshot.traceSpan : undefined;
    this.#span = options.exporter.startSpan(options.agentName ? `invoke_agent ${options.agentName}` : 'invoke_agent', {
      kind: 'internal',
      ...(options.parent ? { parent: options.parent } : {}),
      ...(link ? { links: [link] } : {}),
      attributes: {
        [GEN_AI.operation]: 'invoke_agent',
        [GEN_AI.agentName]: options.agentName,
        [GEN_AI.agentDescription]: options.agentDescription,
        [GEN_AI.conversationId]: snapshot.sessionId,
        [LOUSHO_ATTR.runId]: snapshot.runId,
        ...(continuation ? { [LOUSHO_ATTR.continuation]: true } : {}),
      },
    });
    snapshot.traceSpan = { ...this.#span.ref };
    this.#noop = this.#span.noop === true;
    this.#legParent = { exporter: this.#exporter, span: this.#span };
  }

  /** Starts the span of a leg. `continuation`: the leg goes on from a pause or a crash. */
  static begin(options: RunTraceOptions, snapshot: TracedSnapshot, continuation: boolean): RunTracer {
    return new RunTracer(options, snapshot, continuation);
  }

  /** Once the run's config is resolved: the provider and model the leg uses. */
  configure(deps: TracedDeps): void {
    this.#deps = deps;
    this.#span.setAttributes({
      [GEN_AI.provider]: deps.provider.name,
      [GEN_AI.requestModel]: this.#snapshot.model || deps.provider.defaultModel,
      ...(deps.output ? { [GEN_AI.outputType]: 'json' } : {}),
    });
  }

  chat(step: number, request: GenerateOptions, model: string): ChatTrace {
    if (this.#noop) return NOOP_CHAT;
    const attributes: TraceAttributes = {
      [GEN_AI.operation]: 'chat',
      [GEN_AI.provider]: this.#deps?.provider.name,
      [GEN_AI.requestModel]: model,
      [GEN_AI.requestStream]: true,
      [GEN_AI.requestTemperature]: request.temperature,
      [GEN_AI.requestMaxTokens]: request.maxTokens,
      [GEN_AI.conversationId]: this.#snapshot.sessionId,
      [LOUSHO_ATTR.step]: step,
      [GEN_AI.outputType]: request.responseFormat ? 'json' : undefined,
    };
    if (this.#content) {
      attributes[GEN_AI.inputMessages] = inputMessagesJson(request.messages);
      if (request.system !== undefined) attributes[GEN_AI.systemInstructions] = systemInstructionsJson(request.system);
    }
    const chat = new ChatSpan(this, this.#exporter.startSpan(`chat ${model}`, { kind: 'client', parent: this.#span, attributes }), this.#content);
    this.#chat = chat;
    return chat;
  }

  /** A model call's span ended (the run's end closes one still open). */
  chatEnded(chat: ChatSpan): void {
    if (this.#chat === chat) this.#chat = undefined;
  }

  /** A call is about to be prepared (validation, hooks, approval) and run. */
  toolStart(call: ToolCall): void {
    if (this.#noop) return;
    const tool = this.#deps?.tools.get(call.name);
    const span = this.#exporter.startSpan(`execute_tool ${call.name}`, {
      kind: 'internal',
      parent: this.#span,
      attributes: {
        [GEN_AI.operation]: 'execute_tool',
        [GEN_AI.toolName]: call.name,
        [GEN_AI.toolCallId]: call.id,
        [GEN_AI.toolType]: 'function',
        [GEN_AI.toolDescription]: tool?.description,
        [GEN_AI.toolCallArguments]: this.#content ? call.arguments : undefined,
      },
    });
    this.#tools.set(call.id, span);
  }

  /**
   * Runs a call's execution as its span's work: `ctx.trace` is the span (a nested run or `withSpan()`
   * in the tool parents under it), and the exporter's context has it current while the tool runs.
   */
  runTool<T>(callId: string, ctx: ToolExecutionContext, fn: () => T): T {
    if (this.#noop) {
      ctx.trace = this.#legParent;
      return fn();
    }
    const span = this.#tools.get(callId);
    if (!span) return fn();
    ctx.trace = { exporter: this.#exporter, span };
    return this.#exporter.runInSpan ? this.#exporter.runInSpan(span, fn) : fn();
  }

  /** A call got its result (or its error result). */
  toolEnd(outcome: { call: ToolCall; result: unknown; isError: boolean; error?: ToolErrorResult; replacedByHook?: string }): void {
    const span = this.#tools.get(outcome.call.id);
    if (!span) return;
    this.#tools.delete(outcome.call.id);
    if (outcome.replacedByHook || this.#content) {
      span.setAttributes({
        [LOUSHO_ATTR.replacedByHook]: outcome.replacedByHook,
        [GEN_AI.toolCallResult]: this.#content && !outcome.isError ? safeJson(outcome.result) : undefined,
      });
    }
    if (outcome.isError) span.fail({ type: outcome.error?.kind ?? 'execution', message: outcome.error?.message ?? 'The tool call failed.' });
    span.end();
  }

  /** The leg ended: with its finish reason, and the approval it paused on, if any. */
  finish(finishReason: FinishReason, approvalId?: string): void {
    if (this.#done) return;
    this.#done = true;
    // Still open: the call the run paused on (it is decided, and traced, in the next leg).
    for (const span of this.#tools.values()) {
      span.setAttributes({ [LOUSHO_ATTR.approvalId]: approvalId, [LOUSHO_ATTR.approvalStatus]: 'pending' });
      span.end();
    }
    this.#tools.clear();
    this.#chat?.span.end();
    const usage = this.#snapshot.usage;
    this.#span.setAttributes({
      [GEN_AI.responseFinishReasons]: [finishReason],
      [GEN_AI.inputTokens]: usage.inputTokens - this.#startInput,
      [GEN_AI.outputTokens]: usage.outputTokens - this.#startOutput,
      [LOUSHO_ATTR.usageEstimated]: usage.estimated,
      [LOUSHO_ATTR.finishReason]: finishReason,
      [LOUSHO_ATTR.steps]: this.#snapshot.steps,
      [LOUSHO_ATTR.approvalId]: approvalId,
    });
    this.#span.end();
  }

  /** The leg failed: every span still open ends failed with the same error. */
  fail(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    const traceError = traceErrorOf(error);
    for (const span of [...this.#tools.values(), ...(this.#chat ? [this.#chat.span] : [])]) {
      span.fail(traceError);
      span.end();
    }
    this.#tools.clear();
    this.#chat = undefined;
    this.#span.fail(traceError);
    this.#span.end();
  }
}

/** A model call's span: usage, finish reason and the time to the first chunk once it ends. */
class ChatSpan implements ChatTrace {
  readonly #started = now();
  #firstChunk: number | undefined;

  constructor(
    readonly tracer: RunTracer,
    readonly span: TraceSpan,
    readonly content: boolean,
  ) {}

  chunk(): void {
    this.#firstChunk ??= now();
  }

  end(stepUsage: StepUsage, finishReason: string, text: string, toolCalls: readonly ToolCall[]): void {
    this.#setUsage(stepUsage);
    this.span.setAttributes({
      [GEN_AI.responseModel]: stepUsage.model,
      [GEN_AI.responseFinishReasons]: [finishReason],
      [GEN_AI.outputMessages]: this.content ? outputMessagesJson(text, toolCalls, finishReason) : undefined,
    });
    this.#close();
  }

  fail(error: unknown): void {
    this.span.fail(traceErrorOf(error));
    this.#close();
  }

  aborted(stepUsage?: StepUsage): void {
    if (stepUsage) this.#setUsage(stepUsage);
    this.span.setAttributes({ [LOUSHO_ATTR.aborted]: true });
    this.#close();
  }

  #setUsage({ usage, estimated, costUsd }: StepUsage): void {
    this.span.setAttributes({
      [GEN_AI.inputTokens]: usage.inputTokens,
      [GEN_AI.outputTokens]: usage.outputTokens,
      [GEN_AI.cacheReadInputTokens]: usage.cachedInputTokens,
      [GEN_AI.reasoningOutputTokens]: usage.reasoningTokens,
      [GEN_AI.responseTimeToFirstChunk]: this.#firstChunk !== undefined ? (this.#firstChunk - this.#started) / 1000 : undefined,
      [LOUSHO_ATTR.usageEstimated]: estimated,
      [LOUSHO_ATTR.costUsd]: costUsd,
    });
  }

  #close(): void {
    this.span.end();
    this.tracer.chatEnded(this);
  }
}
