import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { ToolDescriptor } from '@lousho/protocol';
import { scopeOf } from '../loop-scope.js';
import type { RunSubagents } from './catalog.js';
import { runChild } from './run-child.js';
import type { SubagentInfo } from '@lousho/protocol';

export interface TaskInput {
  subagent: string;
  prompt: string;
}

/** The name of the lead's delegation tool. */
export const TASK_TOOL = 'task';

type Issue = StandardSchemaV1.Issue;

function taskInputSchema(names: readonly string[]): StandardSchemaV1<unknown, TaskInput> {
  return {
    '~standard': {
      version: 1,
      vendor: 'lousho',
      validate(value) {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return { issues: [{ message: 'Expected an object { subagent, prompt }.' }] };
        const { subagent, prompt } = value as Record<string, unknown>;
        const issues: Issue[] = [];
        if (typeof subagent !== 'string' || !names.includes(subagent)) {
          const shown = typeof subagent === 'string' ? `'${subagent}'` : JSON.stringify(subagent ?? null);
          issues.push({ message: `Unknown sub-agent ${shown}. Available sub-agents: ${names.join(', ')}.`, path: ['subagent'] });
        }
        if (typeof prompt !== 'string' || prompt.trim() === '') issues.push({ message: 'prompt must be a non-empty string: the whole task, self-contained.', path: ['prompt'] });
        return issues.length > 0 ? { issues } : { value: { subagent: subagent as string, prompt: prompt as string } };
      },
    },
  };
}

/** The lead's one delegation tool: `{ subagent, prompt }`, the sub-agent's answer as its result. */
export function taskTool(subagents: RunSubagents): ToolDescriptor<TaskInput, unknown> {
  const names = subagents.list.map((s) => s.name);
  return {
    name: TASK_TOOL,
    displayName: 'Delegate',
    description:
      'Hand a task to one of your sub-agents and get its answer back. The sub-agent sees only `prompt`, none of this conversation, so make the prompt complete and self-contained.',
    inputSchema: taskInputSchema(names),
    parameters: {
      type: 'object',
      properties: {
        subagent: { type: 'string', enum: names, description: 'The sub-agent that does the task.' },
        prompt: { type: 'string', description: 'The task, with everything the sub-agent needs to do it.' },
      },
      required: ['subagent', 'prompt'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const agent = await subagents.resolve(args.subagent);
      if (agent === undefined || agent === null) {
        throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `The sub-agent catalog did not resolve '${args.subagent}', which it listed.`, {
          hint: 'Make resolve(name, ctx) return an agent for every name list(ctx) returns.',
        });
      }
      return runChild(agent, args.subagent, args.prompt, ctx, scopeOf(ctx));
    },
  };
}

/** The part of the lead's system prompt that lists its sub-agents. */
export function subagentListing(list: readonly SubagentInfo[]): string {
  const lines = list.map((s) => `- ${s.name}: ${s.description.trim().replace(/\s+/g, ' ')}`);
  return [
    '## Sub-agents',
    `You can delegate with the \`${TASK_TOOL}\` tool ({ subagent, prompt }). A sub-agent starts fresh and sees only your prompt, so include everything it needs; its answer comes back as the tool result. Several tasks in one turn run at the same time.`,
    ...lines,
  ].join('\n');
}

/** The lead's system prompt with the sub-agent listing appended. */
export function withSubagentListing(system: string | undefined, list: readonly SubagentInfo[]): string {
  const listing = subagentListing(list);
  return system ? `${system}\n\n${listing}` : listing;
}
