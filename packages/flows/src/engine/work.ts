import {
  ERROR_CODES,
  findJsonFence,
  GEN_AI,
  SDKError,
  traceErrorOf,
  splitArtifacts,
  summarizeIssues,
  toolSchemaToJSONSchema,
  validateToolArguments,
  validateToolSchema,
  type AgentInput,
  type AgentStreamEvent,
  type ExecutionResult,
  type RunUsage,
  type ToolDescriptor,
  type TraceParent,
} from '@lousho/core';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Vars, Work } from '../definition.js';
import { FLOW_ERROR_CODES } from '../errors.js';
import { renderTemplate, renderValue } from '../expression/template.js';
import type { NodeTrace } from '../tracing/flow-tracer.js';
import type { FlowNodeContext } from '../types.js';

/** An event nested in a flow event: an agent's stream event without its session numbering. */
export type NestedEvent = { type: string } & Record<string, unknown>;

export interface WorkScope {
  ctx: FlowNodeContext;
  /** Passes an event of the work (an agent's stream event, a tool's progress) up to the flow's stream. */
  nest(event: NestedEvent): void;
  /** Counts an agent call's usage into the run's. */
  countUsage(usage: RunUsage): void;
  /** With tracing: the pass's span (the work's spans nest under it). */
  trace?: NodeTrace;
}

/** A node stopped because the flow was stopped: not a failure, and not checkpointed. */
export class WorkAborted extends Error {
  constructor() {
    super('The flow was stopped.');
    this.name = 'AbortError';
  }
}

/** Runs one unit of work (an agent, a tool or a function) with the variables; resolves with its output. */
export async function runWork(work: Work, vars: Vars, scope: WorkScope): Promise<unknown> {
  if (scope.ctx.signal.aborted) throw new WorkAborted();
  return scope.trace ? scope.trace.run(() => runKind(work, vars, scope)) : runKind(work, vars, scope);
}

function runKind(work: Work, vars: Vars, scope: WorkScope): Promise<unknown> | unknown {
  switch (work.kind) {
    case 'agent':
      return runAgent(work, vars, scope);
    case 'tool':
      return runTool(work, vars, scope);
    case 'step':
      return work.run(vars, scope.ctx);
  }
}

async function runAgent(work: Extract<Work, { kind: 'agent' }>, vars: Vars, scope: WorkScope): Promise<unknown> {
  const { ctx } = scope;
  let input: AgentInput = typeof work.input === 'function' ? await work.input(vars, ctx) : renderTemplate(work.input, vars);
  if (work.output) input = withOutputInstructions(input, work.output);
  // A session of its own per call; its events are followed and nested in the flow's stream.
  const sessionId = `${ctx.sessionId}.${ctx.node}.${ctx.iteration}.${globalThis.crypto.randomUUID().slice(0, 8)}`;
  const unsubscribe = work.agent.sessions?.subscribe(sessionId, (event: AgentStreamEvent) => {
    const { seq: _seq, runId: _runId, sessionId: _sessionId, ...body } = event;
    scope.nest(body as NestedEvent);
  });
  let result: ExecutionResult<unknown>;
  try {
    // Traced: the agent's run nests under the pass's span (and uses the flow's exporter unless it has its own).
    const traceParent = scope.trace?.parent;
    result = await work.agent.send(input, { sessionId, signal: ctx.signal, metadata: { flowRunId: ctx.runId, flowNode: ctx.node }, ...(traceParent ? { traceParent } : {}) });
  } finally {
    unsubscribe?.();
  }
  scope.countUsage(result.usage);
  if (result.finishReason === 'aborted') throw new WorkAborted();
  if (result.finishReason === 'awaiting-approval') {
    throw new SDKError(FLOW_ERROR_CODES.LOUSHO_FLOW_NODE_FAILED, `The agent paused for an approval of its own (approval '${result.approvalId ?? ''}').`, {
      hint: 'In a flow, people decide at approval nodes: give the agent an `approve` function, or move the decision to an .approval() node.',
    });
  }
  if (result.finishReason === 'output-invalid') {
    throw new SDKError(FLOW_ERROR_CODES.LOUSHO_FLOW_OUTPUT_INVALID, `The agent's reply did not match its output schema: ${result.outputError?.message ?? 'invalid'}.`);
  }
  if (!work.output) return result.object !== undefined ? result.object : result.text;
  return parseOutput(result.object !== undefined ? result.object : parseJsonReply(result.text), work.output);
}

/** Tells the agent the reply must be JSON matching the node's schema. */
function withOutputInstructions(input: AgentInput, schema: StandardSchemaV1): AgentInput {
  const note = `\n\nReply with only a JSON value (no prose, no code fence) matching this JSON Schema:\n${JSON.stringify(toolSchemaToJSONSchema(schema))}`;
  if (typeof input === 'string') return input + note;
  const first = input[0] as { role?: unknown } | undefined;
  if (typeof first?.role === 'string') return [...(input as Exclude<AgentInput, string>), { role: 'user', content: note.trim() }] as AgentInput;
  return [...(input as Exclude<AgentInput, string>), { type: 'text', text: note }] as AgentInput;
}

/** The JSON in a reply: the whole text, or the inside of a ```json fence. */
function parseJsonReply(text: string): unknown {
  const body = findJsonFence(text) ?? text.trim();
  try {
    return JSON.parse(body);
  } catch {
    throw new SDKError(FLOW_ERROR_CODES.LOUSHO_FLOW_OUTPUT_INVALID, 'The agent was asked for JSON but its reply is not JSON.', {
      hint: 'Check the agent\'s instructions, or use createAgent({ output }) so the agent repairs an invalid reply.',
    });
  }
}

async function parseOutput(value: unknown, schema: StandardSchemaV1): Promise<unknown> {
  const checked = await validateToolSchema(schema, value);
  if (checked.ok) return checked.value;
  throw new SDKError(FLOW_ERROR_CODES.LOUSHO_FLOW_OUTPUT_INVALID, `The agent's reply does not match the node's output schema: ${summarizeIssues(checked.issues)}.`, {
    hint: 'Check the agent\'s instructions, or use createAgent({ output }) so the agent repairs an invalid reply.',
  });
}

async function runTool(work: Extract<Work, { kind: 'tool' }>, vars: Vars, scope: WorkScope): Promise<unknown> {
  const { ctx } = scope;
  const tool = work.tool;
  const name = tool.name ?? ctx.node;
  if (tool.requiresSandbox) {
    throw new SDKError(ERROR_CODES.LOUSHO_SANDBOX_REQUIRED, `Tool '${name}' must run in a sandbox, which flows do not provide.`, {
      hint: 'Wrap the call in a .step() node that runs it through your sandbox.',
    });
  }
  const raw = typeof work.args === 'function' ? await work.args(vars, ctx) : renderArgs(work.args, vars);
  const checked = await validateToolArguments(tool, raw ?? {}, name);
  if (!checked.ok) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_TOOL_ARGUMENTS, checked.error.message, { hint: 'Check the node\'s `args` against the tool\'s input schema.' });
  const toolCallId = `${ctx.runId}.${ctx.node}.${ctx.iteration}`;
  const toolCtx: { toolCallId: string; messages: never[]; abortSignal: AbortSignal; sessionId: string; reportProgress: (progress: unknown) => void; trace?: TraceParent } = {
    toolCallId,
    messages: [],
    abortSignal: ctx.signal,
    sessionId: ctx.sessionId,
    reportProgress: (progress: unknown) => scope.nest({ type: 'tool.progress', toolCallId, toolName: name, progress }),
  };
  const needsApproval = typeof tool.needsApproval === 'function' ? await tool.needsApproval(checked.args, toolCtx) : tool.needsApproval === true;
  if (needsApproval) {
    throw new SDKError(FLOW_ERROR_CODES.LOUSHO_FLOW_NODE_FAILED, `Tool '${name}' needs approval, and a tool node does not pause for it.`, {
      hint: 'In a flow, people decide at .approval() nodes: put one before this node and call the tool from a .step() node (or use a tool without needsApproval).',
    });
  }
  // The call, nested like an agent's (the node's card shows it; evals read the run's tool calls from it).
  scope.nest({ type: 'tool.call', toolCallId, toolName: name, args: checked.args });
  const output = splitArtifacts(await traceTool(scope.trace, tool, name, toolCallId, toolCtx, () => tool.execute!(checked.args, toolCtx))).value;
  scope.nest({ type: 'tool.done', toolCallId, toolName: name, result: output });
  return output;
}

/**
 * With tracing, the call is an `execute_tool` span under the pass's span, as an agent's tool call
 * is under its run's, and the tool gets it as `ctx.trace` (a sub-agent or `withSpan()` in it nests there).
 */
async function traceTool<T>(trace: NodeTrace | undefined, tool: ToolDescriptor, name: string, toolCallId: string, toolCtx: { trace?: TraceParent }, execute: () => Promise<T> | T): Promise<T> {
  const parent = trace?.parent;
  if (!parent) return execute();
  if (parent.span.noop) {
    toolCtx.trace = parent;
    return execute();
  }
  const span = parent.exporter.startSpan(`execute_tool ${name}`, {
    kind: 'internal',
    parent: parent.span,
    attributes: { [GEN_AI.operation]: 'execute_tool', [GEN_AI.toolName]: name, [GEN_AI.toolCallId]: toolCallId, [GEN_AI.toolType]: 'function', [GEN_AI.toolDescription]: tool.description },
  });
  toolCtx.trace = { exporter: parent.exporter, span };
  try {
    return await (parent.exporter.runInSpan ? parent.exporter.runInSpan(span, execute) : execute());
  } catch (error) {
    span.fail(traceErrorOf(error));
    throw error;
  } finally {
    span.end();
  }
}

/** Fills the templates of an `args` object: a value stays as it is, a string is a template. */
function renderArgs(args: Record<string, unknown>, vars: Vars): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) out[key] = typeof value === 'string' ? renderValue(value, vars) : value;
  return out;
}
