import type { AgentStreamEvent, FinishReason, RunUsage, SubagentRef } from '@lousho/core';

/** One chunk of the AI SDK's UI message stream (`UIMessageChunk` of `ai` 5 and later), as JSON. */
export type UiChunk = { type: string } & Record<string, unknown>;

/** The AI SDK's finish reasons. */
type AiSdkFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** What `finish` carries as `messageMetadata.lousho`: the run's own finish reason and usage. */
export interface LoushoMessageMetadata {
  finishReason: FinishReason;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number } | null;
  steps: number;
}

/**
 * Turns a Lousho run's stream events into the AI SDK's UI message stream chunks, one event at a
 * time. Text and reasoning open and close their parts around everything else; a sub-agent's tool
 * calls are tool parts of the message (so their approvals work as any other), its text a
 * `data-subagent` part updated in place.
 */
export class AiSdkMapper {
  private openText: string | undefined;
  private openReasoning: string | undefined;
  private readonly inputAvailable = new Set<string>();
  private readonly started = new Set<string>();
  private readonly subagentText = new Map<string, { ref: SubagentRef; text: string }>();
  private counter = 0;
  private modelCalled = false;
  private opened = false;
  private finished = false;

  /** `messageId`: a new assistant message's id; none when the run goes on with the client's last message (a resume). */
  constructor(private readonly options: { messageId?: string; prefix: string }) {}

  get done(): boolean {
    return this.finished;
  }

  /** The UI message stream chunks one of our events becomes (none for events the stream has no part for). */
  map(event: AgentStreamEvent): UiChunk[] {
    if (this.finished) return [];
    const out: UiChunk[] = [];
    if (!this.opened) {
      this.opened = true;
      out.push({ type: 'start', ...(this.options.messageId && { messageId: this.options.messageId }) });
    }
    if (event.subagent && event.type !== 'tool.call' && event.type !== 'tool.input.start' && event.type !== 'tool.input.delta' && event.type !== 'tool.done' && event.type !== 'tool.error' && event.type !== 'approval.requested') {
      if (event.type === 'text.delta') out.push(this.subagentDelta(event.subagent, event.delta));
      return out;
    }
    switch (event.type) {
      case 'step.start':
        this.closeParts(out);
        this.modelCalled = true;
        out.push({ type: 'start-step' });
        break;
      case 'step.done':
        this.closeParts(out);
        out.push({ type: 'finish-step' });
        break;
      case 'text.delta':
        this.closeReasoning(out);
        if (!this.openText) {
          this.openText = this.nextId('text');
          out.push({ type: 'text-start', id: this.openText });
        }
        if (event.delta) out.push({ type: 'text-delta', id: this.openText, delta: event.delta });
        break;
      case 'reasoning.delta':
        this.closeText(out);
        if (!this.openReasoning) {
          this.openReasoning = this.nextId('reasoning');
          out.push({ type: 'reasoning-start', id: this.openReasoning });
        }
        if (event.delta) out.push({ type: 'reasoning-delta', id: this.openReasoning, delta: event.delta });
        break;
      case 'tool.input.start':
        this.closeParts(out);
        this.started.add(event.toolCallId);
        out.push({ type: 'tool-input-start', toolCallId: event.toolCallId, toolName: event.toolName, title: titleOf(event.displayName, event.subagent) });
        break;
      case 'tool.input.delta':
        if (this.started.has(event.toolCallId) && event.delta) out.push({ type: 'tool-input-delta', toolCallId: event.toolCallId, inputTextDelta: event.delta });
        break;
      case 'tool.call':
        this.closeParts(out);
        this.inputAvailable.add(event.toolCallId);
        out.push({ type: 'tool-input-available', toolCallId: event.toolCallId, toolName: event.toolName, input: event.args ?? {}, title: titleOf(event.displayName, event.subagent) });
        break;
      case 'approval.requested':
        this.closeParts(out);
        // A browser tool's call needs no part of its own: its `tool-input-available` is what useChat's onToolCall answers (addToolOutput).
        if (event.approval.kind === 'tool') out.push({ type: 'tool-approval-request', approvalId: event.approval.approvalId, toolCallId: event.approval.toolCallId });
        else if (event.approval.kind === 'question') out.push({ type: 'data-question', id: event.approval.approvalId, data: { approvalId: event.approval.approvalId, toolCallId: event.approval.toolCallId, question: event.approval.question ?? '' } });
        break;
      case 'tool.done':
        out.push({ type: 'tool-output-available', toolCallId: event.toolCallId, output: event.result ?? null });
        break;
      case 'tool.error':
        this.closeParts(out);
        // A call of this stream that never got valid input has no part yet (tool-input-error makes it); before
        // this stream's first model call, an error is for a call of the stream before (a resume): the client has its part.
        if (this.modelCalled && !this.inputAvailable.has(event.toolCallId)) out.push({ type: 'tool-input-error', toolCallId: event.toolCallId, toolName: event.toolName, input: null, errorText: event.error.message });
        else if (event.error.kind === 'rejected') out.push({ type: 'tool-output-denied', toolCallId: event.toolCallId });
        else out.push({ type: 'tool-output-error', toolCallId: event.toolCallId, errorText: event.error.message });
        break;
      case 'tool.progress':
        out.push({ type: 'data-tool-progress', id: event.toolCallId, data: { toolCallId: event.toolCallId, toolName: event.toolName, progress: event.progress } });
        break;
      case 'compaction.done':
        out.push({ type: 'data-compaction', data: { pruned: event.pruned, summarized: event.summarized } });
        break;
      case 'flow.node.start':
        out.push({ type: 'data-flow-node', id: event.toolCallId, data: { node: event.toolName, label: event.displayName, kind: event.kind, state: 'running' } });
        break;
      case 'flow.node.done':
        out.push({ type: 'data-flow-node', id: event.toolCallId, data: { node: event.toolName, state: 'done', result: event.result ?? null } });
        break;
      case 'flow.node.error':
        out.push({ type: 'data-flow-node', id: event.toolCallId, data: { node: event.toolName, state: 'error', error: event.error } });
        break;
      case 'run.done':
        out.push(...this.finish(event.finishReason, event.usage, event.steps));
        break;
      case 'error':
        this.closeParts(out);
        this.finished = true;
        out.push({ type: 'error', errorText: `${event.error.message} (${event.error.code})` });
        break;
      default:
        break; // run.start, user.message, message.queued, message.unqueued, approval.resolved, compaction.start, flow.node.event, flow.branch, run.interrupted: see docs/ag-ui.md
    }
    return out;
  }

  /** Ends a stream the run left without `run.done` or `error`. */
  fail(message: string, code: string): UiChunk[] {
    if (this.finished) return [];
    const out: UiChunk[] = this.opened ? [] : [{ type: 'start' }];
    this.opened = true;
    this.closeParts(out);
    this.finished = true;
    out.push({ type: 'error', errorText: `${message} (${code})` });
    return out;
  }

  private finish(finishReason: FinishReason, usage: RunUsage | undefined, steps: number): UiChunk[] {
    const out: UiChunk[] = [];
    this.closeParts(out);
    this.finished = true;
    if (finishReason === 'aborted') out.push({ type: 'abort' });
    const lousho: LoushoMessageMetadata = { finishReason, usage: usage ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens } : null, steps };
    out.push({ type: 'finish', finishReason: aiSdkFinishReason(finishReason), messageMetadata: { lousho } });
    return out;
  }

  private subagentDelta(ref: SubagentRef, delta: string): UiChunk {
    const entry = this.subagentText.get(ref.toolCallId) ?? { ref, text: '' };
    entry.text += delta;
    this.subagentText.set(ref.toolCallId, entry);
    return { type: 'data-subagent', id: ref.toolCallId, data: { name: ref.name, depth: ref.depth, toolCallId: ref.toolCallId, text: entry.text } };
  }

  private closeText(out: UiChunk[]): void {
    if (!this.openText) return;
    out.push({ type: 'text-end', id: this.openText });
    this.openText = undefined;
  }

  private closeReasoning(out: UiChunk[]): void {
    if (!this.openReasoning) return;
    out.push({ type: 'reasoning-end', id: this.openReasoning });
    this.openReasoning = undefined;
  }

  private closeParts(out: UiChunk[]): void {
    this.closeText(out);
    this.closeReasoning(out);
  }

  private nextId(kind: string): string {
    return `${this.options.prefix}:${kind}:${++this.counter}`;
  }
}

function titleOf(displayName: string, subagent: SubagentRef | undefined): string {
  return subagent ? `${subagent.name}: ${displayName}` : displayName;
}

function aiSdkFinishReason(reason: FinishReason): AiSdkFinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'error':
      return 'error';
    case 'length':
    case 'max-steps':
      return 'length';
    case 'content_filter':
    case 'guardrail':
      return 'content-filter';
    case 'tool_calls':
    case 'awaiting-approval':
      return 'tool-calls';
    default:
      return 'other';
  }
}
