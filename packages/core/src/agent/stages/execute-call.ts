import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { ToolCall } from '@lousho/protocol';
import { isAbortError } from '@lousho/providers';
import { splitArtifacts } from '../../tools/artifacts.js';
import { PropagatingToolError, toolErrorResult } from '../../tools/errors.js';
import { validateToolSchema } from '../../tools/schema.js';
import type { ToolDescriptor } from '@lousho/protocol';
import type { SandboxAdapter } from '@lousho/protocol';
import type { ToolExecutionContext } from '@lousho/protocol';
import { ChildPaused } from '../child-pause.js';
import type { CallScope, PreparedCall, ToolOutcome } from '../tool-call.js';
import { cancelledError, errorOutcome } from '../tool-outcome.js';

type RunnableCall = Extract<PreparedCall, { kind: 'run' }>;

/**
 * The stage "execute": runs the tool (in the sandbox when it requires one; a sub-agent's tool runs a
 * nested run) and checks its result against its `outputSchema`. A throw is the call's error result
 * (`cancelled` when the run was stopped), except a `PropagatingToolError`, which ends the run. A
 * delegation whose sub-agent waits for a person comes back `paused`, with no result yet.
 */
export async function executeStage(scope: CallScope, prepared: RunnableCall): Promise<ToolOutcome> {
  const { call, tool, args, ctx } = prepared;
  try {
    const refusal = tool.requiresSandbox ? sandboxRefusal(call, tool, scope.deps.sandbox) : undefined;
    if (refusal) return errorOutcome(call, args, toolErrorResult({ toolName: call.name, toolCallId: call.id, kind: 'sandbox', error: refusal }));
    const raw = await runTool(call, tool, args, ctx, scope.deps.sandbox);
    // A sub-agent waits for a person: no result yet, no post-hooks; the batch pauses on it.
    if (raw instanceof ChildPaused) return { call, args, result: null, isError: false, paused: raw.approval };
    const { value, artifacts } = splitArtifacts(raw);
    return await checkResult(call, tool, { call, args, result: value, isError: false, ...(artifacts ? { artifacts } : {}) });
  } catch (err) {
    if (err instanceof PropagatingToolError) throw err;
    const cancelled = isAbortError(err) || (scope.deps.signal?.aborted ?? false);
    const error = cancelled ? cancelledError(call) : toolErrorResult({ toolName: call.name, toolCallId: call.id, error: err });
    return errorOutcome(call, args, error);
  }
}

/** Why a tool that requires a sandbox cannot run in this one (it is refused, never run unsandboxed). */
function sandboxRefusal(call: ToolCall, tool: ToolDescriptor, sandbox: SandboxAdapter | undefined): string | undefined {
  if (!tool.sandboxExecute) return `'${call.name}' requires a sandbox but has no sandboxExecute; it was refused rather than run unsandboxed.`;
  if (!sandbox) return `'${call.name}' requires a sandbox, but the agent has no SandboxAdapter configured.`;
  if (typeof sandbox.run !== 'function' && typeof sandbox.exec !== 'function') {
    return `'${call.name}' requires a sandbox, but the configured one ('${sandbox.name ?? 'unnamed'}') can neither run commands (exec) nor functions (run).`;
  }
  return undefined;
}

async function runTool(call: ToolCall, tool: ToolDescriptor, args: unknown, ctx: ToolExecutionContext, sandbox: SandboxAdapter | undefined): Promise<unknown> {
  if (tool.requiresSandbox) {
    // sandboxExecute does its work through sandbox.exec; an adapter that offers run() wraps it whole.
    const run = () => tool.sandboxExecute!(args as never, sandbox!, ctx);
    return typeof sandbox!.run === 'function' ? await sandbox!.run(run) : await run();
  }
  if (tool.execute) return await tool.execute(args as never, ctx);
  const legacy = tool.tool?.execute;
  if (!legacy) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_TOOL_DEFINITION, `Tool '${call.name}' has no execute function.`, { hint: 'Give the tool an execute(args, ctx) function.' });
  return await legacy(args, { toolCallId: call.id, messages: ctx.messages, abortSignal: ctx.abortSignal });
}

/** A result that does not match the tool's `outputSchema` is the call's `output-validation` error. */
async function checkResult(call: ToolCall, tool: ToolDescriptor, outcome: ToolOutcome): Promise<ToolOutcome> {
  if (!tool.outputSchema) return outcome;
  const checked = await validateToolSchema(tool.outputSchema, outcome.result);
  if (checked.ok) {
    outcome.result = checked.value;
    return outcome;
  }
  const error = toolErrorResult({
    toolName: call.name,
    toolCallId: call.id,
    kind: 'output-validation',
    error: `'${call.name}' returned a result that does not match its outputSchema: ${checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    details: { issues: checked.issues },
  });
  return errorOutcome(call, outcome.args, error);
}
