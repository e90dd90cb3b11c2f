import { toolErrorResult } from '../../../src/tools/errors.js';
import type { ToolErrorResult, ToolExecutionContext } from '@lousho/protocol';
import { validateToolArguments } from '../../../src/tools/validate-args.js';

interface RunnableTool<Args, Result> {
  name: string;
  inputSchema: unknown;
  execute: (args: Args, ctx: ToolExecutionContext) => Result | Promise<Result>;
}

export type ToolOutcome<Result> = { ok: true; result: Awaited<Result> } | { ok: false; error: ToolErrorResult };

let callCounter = 0;

/**
 * Runs a tool the way the agent loop does: the model's raw arguments are validated against the
 * schema, then `execute` runs, and a throw becomes the tool error result the model would get.
 */
export async function callTool<Args, Result>(
  tool: RunnableTool<Args, Result>,
  rawArgs: unknown,
  ctx: Partial<ToolExecutionContext> = {},
): Promise<ToolOutcome<Result>> {
  const validation = await validateToolArguments(tool as never, typeof rawArgs === 'string' ? rawArgs : JSON.stringify(rawArgs), tool.name);
  if (!validation.ok) return { ok: false, error: validation.error };
  try {
    const result = await tool.execute(validation.args as Args, {
      toolCallId: `call_${++callCounter}`,
      messages: [],
      ...ctx,
    });
    return { ok: true, result };
  } catch (error) {
    return { ok: false, error: toolErrorResult({ toolName: tool.name, error }) };
  }
}

/** The result of a call that must succeed; fails the test with the error result otherwise. */
export async function expectResult<Args, Result>(
  tool: RunnableTool<Args, Result>,
  rawArgs: unknown,
  ctx?: Partial<ToolExecutionContext>,
): Promise<Awaited<Result>> {
  const outcome = await callTool(tool, rawArgs, ctx);
  if (!outcome.ok) throw new Error(`Expected ${tool.name} to succeed, got ${JSON.stringify(outcome.error)}`);
  return outcome.result;
}

/** The error result of a call that must fail. */
export async function expectToolError<Args, Result>(
  tool: RunnableTool<Args, Result>,
  rawArgs: unknown,
  ctx?: Partial<ToolExecutionContext>,
): Promise<ToolErrorResult> {
  const outcome = await callTool(tool, rawArgs, ctx);
  if (outcome.ok) throw new Error(`Expected ${tool.name} to fail, got ${JSON.stringify(outcome.result)}`);
  return outcome.error;
}
