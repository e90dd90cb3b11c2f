import { EventType, type BaseEvent, type Interrupt, type Message as AgUiMessage, type TokenUsage } from '@ag-ui/core';
import type { AgentStreamEvent, PendingApprovalInfo, RunUsage, SubagentRef } from '@lousho/core';
import { interruptOf } from './interrupts.js';
import { subagentRunIdOf } from './subagent-ids.js';

/** The state a Lousho run publishes as AG-UI state (`STATE_SNAPSHOT`, `STATE_DELTA`). */
export interface LoushoRunState {
  status: 'running' | 'awaiting-approval' | 'idle' | 'error';
  /** Model calls taken so far in the run. */
  steps: number;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number } | null;
  finishReason: string | null;
  /** The latest `ctx.reportProgress` value of each running call, by tool call id. */
  progress: Record<string, unknown>;
}

/** What `AgUiMapper` needs to know of the run it maps. */
export interface MapperOptions {
  threadId: string;
  /** The AG-UI run id (the client's). */
  runId: string;
  /** Sent right after `RUN_STARTED`: the transcript the client should hold, when it differs from what it sent. */
  snapshot?: AgUiMessage[];
  /** The thread's transcript as the server holds it: sent when an output guardrail withheld the streamed reply. */
  transcript?: () => AgUiMessage[];
}

type Scope = string; // '' for the lead agent, else a sub-agent's run id

/**
 * Turns a Lousho run's stream events into AG-UI events, one event at a time. Holds what AG-UI needs
 * and our events leave implicit: which text or reasoning message is open (closed before anything
 * else happens in its scope), which tool calls are started and ended, which sub-agents are open.
 */
export class AgUiMapper {
  private readonly openText = new Map<Scope, string>();
  private readonly openReasoning = new Map<Scope, string>();
  /** The assistant text message of the current step, per scope: the message its tool calls belong to. */
  private readonly stepMessage = new Map<Scope, string>();
  private readonly startedCalls = new Map<string, { ended: boolean }>();
  /** Steps started and not finished, with their scope (AG-UI wants each closed before the run ends). */
  private readonly openSteps = new Map<string, Scope>();
  private readonly openSubagents = new Map<string, SubagentRef>();
  private readonly subagentOfCall = new Map<string, string>();
  private readonly state: LoushoRunState = { status: 'running', steps: 0, usage: null, finishReason: null, progress: {} };
  private pending: PendingApprovalInfo | undefined;
  private counter = 0;
  private started = false;
  private finished = false;

  constructor(private readonly options: MapperOptions) {}

  /** True once `RUN_FINISHED` or `RUN_ERROR` went out: nothing may follow. */
  get done(): boolean {
    return this.finished;
  }

  /** The AG-UI events one of our stream events becomes (none for some: see docs/ag-ui.md). */
  map(event: AgentStreamEvent): BaseEvent[] {
    if (this.finished) return [];
    const out: BaseEvent[] = [];
    if (!this.started) out.push(...this.opening());
    if (event.type === 'run.start') return out;
    const scope = this.scopeOf(event.subagent, out);
    const tag = scope ? { subagentRunId: scope } : {};
    switch (event.type) {
      case 'user.message':
      case 'run.interrupted':
        break;
      case 'step.start':
        this.closeMessages(scope, out);
        this.stepMessage.delete(scope);
        this.startStep(stepName(event.step), scope, out);
        break;
      case 'text.delta':
        this.streamText(event.delta, scope, out);
        break;
      case 'reasoning.delta':
        this.streamReasoning(event.delta, scope, out);
        break;
      case 'tool.input.start':
      case 'tool.input.delta':
      case 'tool.call':
      case 'tool.progress':
      case 'tool.done':
      case 'tool.error':
        this.mapTool(event, scope, out);
        break;
      case 'approval.requested':
        // Its call ended with `tool.call`; the interrupt goes out on RUN_FINISHED.
        this.closeMessages(scope, out);
        this.pending = event.approval;
        break;
      case 'approval.resolved':
        out.push(custom('lousho.approval.resolved', { approvalId: event.approvalId, toolCallId: event.toolCallId, approved: event.approved, ...(event.note !== undefined && { note: event.note }), ...(event.answer !== undefined && { answer: event.answer }) }, tag));
        break;
      case 'message.queued':
        out.push(custom('lousho.message.queued', { queueId: event.queueId, mode: event.mode, message: event.message }, tag));
        break;
      case 'message.unqueued':
        out.push(custom('lousho.message.unqueued', { queueId: event.queueId, reason: event.reason }, tag));
        break;
      case 'compaction.start':
        out.push(custom('lousho.compaction.start', { step: event.step, tokens: event.tokens, contextWindow: event.contextWindow }, tag));
        break;
      case 'compaction.done':
        out.push(custom('lousho.compaction.done', { step: event.step, tokensBefore: event.tokensBefore, tokensAfter: event.tokensAfter, pruned: event.pruned, summarized: event.summarized }, tag));
        break;
      case 'step.done':
        this.closeMessages(scope, out);
        this.finishStep(stepName(event.step), scope, out);
        if (!scope) {
          this.state.steps = event.step;
          this.state.usage = tokenTotals(event.usage);
          out.push(this.stateSnapshot());
        }
        break;
      case 'run.done':
        if (scope) break; // a sub-agent's own end: its parent's tool result closes it
        out.push(...this.finish(event));
        break;
      case 'error':
        if (scope) break; // the parent's tool.error reports it
        this.closeAll(out);
        this.finished = true;
        out.push({ type: EventType.RUN_ERROR, message: event.error.message, code: event.error.code } as BaseEvent);
        break;
      case 'flow.node.start':
      case 'flow.node.event':
      case 'flow.node.done':
      case 'flow.node.error':
      case 'flow.branch':
        this.mapFlow(event, scope, out);
        break;
      default:
        break; // a type this version does not know: consumers ignore those (docs/events.md)
    }
    return out;
  }

  private streamText(delta: string, scope: Scope, out: BaseEvent[]): void {
    this.closeReasoning(scope, out);
    const tag = scope ? { subagentRunId: scope } : {};
    let id = this.openText.get(scope);
    if (!id) {
      id = this.nextId('msg');
      this.openText.set(scope, id);
      this.stepMessage.set(scope, id);
      out.push({ type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant', ...tag } as BaseEvent);
    }
    if (delta) out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta, ...tag } as BaseEvent);
  }

  private streamReasoning(delta: string, scope: Scope, out: BaseEvent[]): void {
    this.closeText(scope, out);
    const tag = scope ? { subagentRunId: scope } : {};
    let id = this.openReasoning.get(scope);
    if (!id) {
      id = this.nextId('reasoning');
      this.openReasoning.set(scope, id);
      out.push({ type: EventType.REASONING_START, messageId: id, ...tag } as BaseEvent, { type: EventType.REASONING_MESSAGE_START, messageId: id, role: 'reasoning', ...tag } as BaseEvent);
    }
    if (delta) out.push({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: id, delta, ...tag } as BaseEvent);
  }

  /** A tool call's events: started, its arguments, ended, its progress (state), its result. */
  private mapTool(event: Extract<AgentStreamEvent, { type: `tool.${string}` }>, scope: Scope, out: BaseEvent[]): void {
    const tag = scope ? { subagentRunId: scope } : {};
    switch (event.type) {
          case 'tool.input.start':
            this.closeMessages(scope, out);
            this.startCall(event.toolCallId, event.toolName, scope, out);
            break;
          case 'tool.input.delta':
            if (this.startedCalls.get(event.toolCallId)?.ended === false && event.delta) {
              out.push({ type: EventType.TOOL_CALL_ARGS, toolCallId: event.toolCallId, delta: event.delta, ...tag } as BaseEvent);
            }
            break;
          case 'tool.call': {
            this.closeMessages(scope, out);
            if (scope) this.subagentOfCall.set(event.toolCallId, scope);
            const call = this.startedCalls.get(event.toolCallId);
            if (!call) {
              this.startCall(event.toolCallId, event.toolName, scope, out);
              out.push({ type: EventType.TOOL_CALL_ARGS, toolCallId: event.toolCallId, delta: JSON.stringify(event.args ?? {}), ...tag } as BaseEvent);
            }
            this.endCall(event.toolCallId, scope, out);
            break;
          }
          case 'tool.progress':
            this.state.progress[event.toolCallId] = event.progress;
            out.push({ type: EventType.STATE_DELTA, delta: [{ op: 'add', path: `/progress/${pointerToken(event.toolCallId)}`, value: event.progress ?? null }] } as BaseEvent);
            break;
          case 'tool.done':
            this.endCall(event.toolCallId, scope, out);
            delete this.state.progress[event.toolCallId];
            out.push({ type: EventType.TOOL_CALL_RESULT, messageId: this.nextId('tool'), toolCallId: event.toolCallId, content: resultText(event.result), role: 'tool', ...tag } as BaseEvent);
            this.finishSubagent(event.toolCallId, out, { type: 'success' }, event.result);
            break;
          case 'tool.error':
            this.closeMessages(scope, out);
            this.endCall(event.toolCallId, scope, out);
            delete this.state.progress[event.toolCallId];
            out.push({ type: EventType.TOOL_CALL_RESULT, messageId: this.nextId('tool'), toolCallId: event.toolCallId, content: JSON.stringify(event.error), role: 'tool', ...tag } as BaseEvent);
            this.failSubagent(event.toolCallId, event.error.message, event.error.error, out);
            break;
    }
  }

  /** A flow's events: each node a step; what runs inside it, and its branch choices, as CUSTOM events. */
  private mapFlow(event: Extract<AgentStreamEvent, { type: `flow.${string}` }>, scope: Scope, out: BaseEvent[]): void {
    const tag = scope ? { subagentRunId: scope } : {};
    switch (event.type) {
          case 'flow.node.start':
            this.closeMessages(scope, out);
            this.startStep(`node:${event.toolCallId}`, scope, out);
            break;
          case 'flow.node.event':
            this.closeMessages(scope, out);
            out.push(custom('lousho.flow.node.event', { toolCallId: event.toolCallId, event: event.event }, tag));
            break;
          case 'flow.node.done':
            this.finishStep(`node:${event.toolCallId}`, scope, out);
            break;
          case 'flow.node.error':
            this.finishStep(`node:${event.toolCallId}`, scope, out);
            out.push(custom('lousho.flow.node.error', { toolCallId: event.toolCallId, toolName: event.toolName, error: event.error }, tag));
            break;
          case 'flow.branch':
            out.push(custom('lousho.flow.branch', { toolCallId: event.toolCallId, toolName: event.toolName, branch: event.branch }, tag));
            break;
    }
  }

  /** Ends a stream the run left without `run.done` or `error` (it threw): `RUN_ERROR` with `code`. */
  fail(message: string, code: string): BaseEvent[] {
    if (this.finished) return [];
    const out: BaseEvent[] = this.started ? [] : this.opening();
    this.closeAll(out);
    this.finished = true;
    out.push({ type: EventType.RUN_ERROR, message, code } as BaseEvent);
    return out;
  }

  /** A run that had nothing to do (no new message, no resume): it re-announces a pending interrupt, if any. */
  idle(pending: PendingApprovalInfo | null | undefined): BaseEvent[] {
    this.state.status = pending ? 'awaiting-approval' : 'idle';
    const out = this.opening();
    this.finished = true;
    out.push(this.runFinished(pending ? { type: 'interrupt', interrupts: [interruptOf(pending)] } : { type: 'success' }));
    return out;
  }

  private opening(): BaseEvent[] {
    this.started = true;
    const out: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: this.options.threadId, runId: this.options.runId, protocolVersion: '1.0' } as BaseEvent];
    if (this.options.snapshot) out.push({ type: EventType.MESSAGES_SNAPSHOT, messages: this.options.snapshot } as BaseEvent);
    out.push(this.stateSnapshot());
    return out;
  }

  private finish(event: Extract<AgentStreamEvent, { type: 'run.done' }>): BaseEvent[] {
    const out: BaseEvent[] = [];
    this.closeMessages('', out);
    const paused = event.finishReason === 'awaiting-approval' && this.pending;
    const interrupts: Interrupt[] = paused ? [interruptOf(this.pending!)] : [];
    // Open sub-agents are suspended on the interrupt (the innermost one raised it), or ended by the stop.
    for (const [id] of [...this.openSubagents].reverse()) {
      this.closeMessages(id, out);
      const own = paused && this.pending!.subagent && subagentRunIdOf(this.pending!.subagent) === id;
      out.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId: id, outcome: paused ? { type: 'suspended', ...(own && { interruptIds: [this.pending!.approvalId] }) } : { type: 'success' } } as BaseEvent);
    }
    this.openSubagents.clear();
    this.endOpenCalls(out);
    this.finishOpenSteps(out);
    this.finished = true;
    // The reply streamed before the guardrail read it: the client's copy gives way to the server's.
    if (event.guardrail?.stage === 'output' && this.options.transcript) out.push({ type: EventType.MESSAGES_SNAPSHOT, messages: this.options.transcript() } as BaseEvent);
    this.state.status = paused ? 'awaiting-approval' : 'idle';
    this.state.finishReason = event.finishReason;
    this.state.steps = event.steps;
    this.state.usage = tokenTotals(event.usage);
    out.push(this.stateSnapshot());
    const result = { finishReason: event.finishReason, steps: event.steps, ...(event.object !== undefined && { object: event.object }), ...(event.budget && { budget: event.budget }), ...(event.guardrail && { guardrail: event.guardrail }), ...(event.outputError && { outputError: event.outputError }) };
    const outcome = paused ? { type: 'interrupt' as const, interrupts } : event.finishReason === 'aborted' ? { type: 'cancelled' as const } : { type: 'success' as const };
    out.push({ ...this.runFinished(outcome), ...(outcome.type === 'success' && { result }), usage: usageEntries(event.usage) } as BaseEvent);
    return out;
  }

  private runFinished(outcome: { type: 'success' } | { type: 'cancelled' } | { type: 'interrupt'; interrupts: Interrupt[] }): BaseEvent {
    return { type: EventType.RUN_FINISHED, threadId: this.options.threadId, runId: this.options.runId, outcome } as BaseEvent;
  }

  private stateSnapshot(): BaseEvent {
    return { type: EventType.STATE_SNAPSHOT, snapshot: structuredClone(this.state) } as BaseEvent;
  }

  /** The scope of an event, opening its sub-agent (`SUBAGENT_STARTED`) on the first event it sends. */
  private scopeOf(ref: SubagentRef | undefined, out: BaseEvent[]): Scope {
    if (!ref) return '';
    const id = subagentRunIdOf(ref);
    if (!this.openSubagents.has(id)) {
      this.openSubagents.set(id, ref);
      const parent = this.subagentOfCall.get(ref.toolCallId);
      out.push({ type: EventType.SUBAGENT_STARTED, subagentRunId: id, name: ref.name, parentToolCallId: ref.toolCallId, ...(parent && { parentSubagentRunId: parent }) } as BaseEvent);
    }
    return id;
  }

  private finishSubagent(toolCallId: string, out: BaseEvent[], outcome: { type: 'success' }, result: unknown): void {
    const id = this.closeSubagentScope(toolCallId, out);
    if (id) out.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId: id, outcome, result: resultText(result) } as BaseEvent);
  }

  private failSubagent(toolCallId: string, message: string, code: string, out: BaseEvent[]): void {
    const id = this.closeSubagentScope(toolCallId, out);
    if (id) out.push({ type: EventType.SUBAGENT_ERROR, subagentRunId: id, message, code } as BaseEvent);
  }

  /** The sub-agent a finished call started, once its own open messages (and those of any sub-agent inside it) are closed. */
  private closeSubagentScope(toolCallId: string, out: BaseEvent[]): string | undefined {
    const id = [...this.openSubagents].find(([, ref]) => ref.toolCallId === toolCallId)?.[0];
    if (!id) return undefined;
    this.closeMessages(id, out);
    this.openSubagents.delete(id);
    return id;
  }

  private startStep(name: string, scope: Scope, out: BaseEvent[]): void {
    this.openSteps.set(name, scope);
    out.push({ type: EventType.STEP_STARTED, stepName: name, ...(scope && { subagentRunId: scope }) } as BaseEvent);
  }

  /** Finishes a step; one this run did not start (a node a paused run left open) starts here first. */
  private finishStep(name: string, scope: Scope, out: BaseEvent[]): void {
    if (!this.openSteps.has(name)) this.startStep(name, scope, out);
    this.openSteps.delete(name);
    out.push({ type: EventType.STEP_FINISHED, stepName: name, ...(scope && { subagentRunId: scope }) } as BaseEvent);
  }

  /** A step left open by a pause, a stop or an error ends with the run (the next run finishes a paused node again). */
  private finishOpenSteps(out: BaseEvent[]): void {
    for (const [name, scope] of [...this.openSteps].reverse()) {
      this.openSteps.delete(name);
      out.push({ type: EventType.STEP_FINISHED, stepName: name, ...(scope && { subagentRunId: scope }) } as BaseEvent);
    }
  }

  private startCall(toolCallId: string, toolName: string, scope: Scope, out: BaseEvent[]): void {
    if (this.startedCalls.has(toolCallId)) return;
    this.startedCalls.set(toolCallId, { ended: false });
    const parentMessageId = this.stepMessage.get(scope);
    out.push({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: toolName, ...(parentMessageId && { parentMessageId }), ...(scope && { subagentRunId: scope }) } as BaseEvent);
  }

  private endCall(toolCallId: string, scope: Scope, out: BaseEvent[]): void {
    const call = this.startedCalls.get(toolCallId);
    if (!call || call.ended) return;
    call.ended = true;
    out.push({ type: EventType.TOOL_CALL_END, toolCallId, ...(scope && { subagentRunId: scope }) } as BaseEvent);
  }

  private endOpenCalls(out: BaseEvent[]): void {
    for (const [toolCallId, call] of this.startedCalls) {
      if (!call.ended) {
        call.ended = true;
        out.push({ type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent);
      }
    }
  }

  private closeText(scope: Scope, out: BaseEvent[]): void {
    const id = this.openText.get(scope);
    if (!id) return;
    this.openText.delete(scope);
    out.push({ type: EventType.TEXT_MESSAGE_END, messageId: id, ...(scope && { subagentRunId: scope }) } as BaseEvent);
  }

  private closeReasoning(scope: Scope, out: BaseEvent[]): void {
    const id = this.openReasoning.get(scope);
    if (!id) return;
    this.openReasoning.delete(scope);
    const tag = scope ? { subagentRunId: scope } : {};
    out.push({ type: EventType.REASONING_MESSAGE_END, messageId: id, ...tag } as BaseEvent, { type: EventType.REASONING_END, messageId: id, ...tag } as BaseEvent);
  }

  private closeMessages(scope: Scope, out: BaseEvent[]): void {
    this.closeText(scope, out);
    this.closeReasoning(scope, out);
  }

  private closeAll(out: BaseEvent[]): void {
    for (const scope of new Set([...this.openText.keys(), ...this.openReasoning.keys()])) this.closeMessages(scope, out);
    this.endOpenCalls(out);
    this.finishOpenSteps(out);
    for (const [id] of [...this.openSubagents].reverse()) out.push({ type: EventType.SUBAGENT_ERROR, subagentRunId: id, message: 'The run failed.' } as BaseEvent);
    this.openSubagents.clear();
  }

  private nextId(kind: string): string {
    return `${this.options.runId}:${kind}:${++this.counter}`;
  }
}

function stepName(step: number): string {
  return `step ${step}`;
}

function custom(name: string, value: unknown, tag: { subagentRunId?: string }): BaseEvent {
  return { type: EventType.CUSTOM, name, value, ...tag } as BaseEvent;
}

/** A tool result as AG-UI's text content: strings as they are, anything else as JSON. */
export function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  return JSON.stringify(result ?? null);
}

/** A JSON Pointer token (RFC 6901) for a key. */
function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function tokenTotals(usage: RunUsage | undefined): LoushoRunState['usage'] {
  if (!usage) return null;
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens };
}

/** A run's usage as AG-UI's token usage: one entry per model. */
function usageEntries(usage: RunUsage | undefined): TokenUsage[] {
  if (!usage) return [];
  const models = Object.entries(usage.byModel ?? {});
  if (models.length === 0) return [{ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens }];
  return models.map(([model, used]) => ({ model, inputTokens: used.inputTokens, outputTokens: used.outputTokens, totalTokens: used.inputTokens + used.outputTokens }));
}
