import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { ToolDescriptor } from '@lousho/protocol';
import type { ToolExecutionContext } from '@lousho/protocol';
import type { Agent } from '@lousho/protocol';
import { scopeOf } from '../loop-scope.js';
import { delegationHandleOf } from './handle.js';
import { runChild } from './run-child.js';

/** Options of `createDelegateTool()`: how the tool presents itself to the model and to UIs. */
export interface DelegateToolOptions {
  /** The tool's name (default: the agent's `name`). */
  name?: string;
  /** What the model reads to decide when to delegate (default: the agent's `description`). */
  description?: string;
  /** Label for UIs (default: the name). */
  displayName?: string;
}

/** A delegate tool: `{ prompt }` in, the sub-agent's answer out. */
export interface DelegateTool<Result = unknown> extends ToolDescriptor<{ prompt: string }, Result> {
  readonly name: string;
  readonly description: string;
  readonly displayName: string;
}

/**
 * Wraps an agent as a tool another agent calls to delegate: the same nested run as `subagents`
 * (the task prompt alone; the caller's signal, hooks, permission rules, approvals, listeners and
 * events, its usage counted in the caller's), placed where you want it among the caller's tools.
 */
export function createDelegateTool<TObject = unknown>(agent: Agent<TObject, any>, options: DelegateToolOptions = {}): DelegateTool<TObject | string> {
  if (!delegationHandleOf(agent)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'createDelegateTool() needs an agent made by createAgent().', { hint: 'Pass createAgent({ ... }) as the first argument.' });
  }
  const name = options.name ?? agent.name;
  const description = options.description ?? agent.description;
  if (!name) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'createDelegateTool() needs a name: pass { name } or give the agent one.', { hint: "createDelegateTool(agent, { name: 'research', description: '...' })" });
  if (!description) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createDelegateTool(): '${name}' needs a description for the model to choose it by.`, {
      hint: 'Pass { description } or create the agent with one.',
    });
  }
  const subagent = agent.name ?? name;
  return Object.freeze({
    name,
    description,
    displayName: options.displayName ?? name,
    parameters: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The task, with everything needed to do it: the sub-agent sees nothing else.' } },
      required: ['prompt'],
      additionalProperties: false,
    },
    inputSchema: {
      '~standard': {
        version: 1 as const,
        vendor: 'lousho',
        validate: (value: unknown) => {
          const prompt = (value as { prompt?: unknown } | null)?.prompt;
          return typeof prompt === 'string' && prompt.trim() !== ''
            ? { value: { prompt } }
            : { issues: [{ message: 'prompt must be a non-empty string: the whole task, self-contained.', path: ['prompt'] }] };
        },
      },
    },
    execute: (args: { prompt: string }, ctx: ToolExecutionContext) => runChild(agent, subagent, args.prompt, ctx, scopeOf(ctx)) as Promise<TObject | string>,
  });
}
