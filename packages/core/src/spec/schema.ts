import { z } from 'zod';
import type { AgentSpec } from '@lousho/protocol';

/*
 * What a declarative agent spec (`agent.yaml`, `agent.json`) may hold. Every object is strict: a
 * key the schema does not know is an error naming the closest known one, never ignored.
 */

const positiveInt = z.number().int().positive();

/** The names a spec's `tools` list may use for the built-in tools (see "Tools a spec can reference"). */
export const SPEC_BUILTIN_TOOLS = ['http', 'current-date', 'day-name', 'todo'] as const;

const limitsSchema = z
  .object({
    maxTokens: positiveInt.optional(),
    maxCostUsd: z.number().positive().optional(),
    maxToolCalls: positiveInt.optional(),
    maxDurationMs: positiveInt.optional(),
  })
  .strict();

const memorySpecSchema = z
  .object({
    /** Names the tools `remember_<name>` / `recall_<name>`. */
    name: z.string().min(1),
    scope: z.enum(['global', 'session']),
    /** A folder: the memory is kept in files there (`fileMemory`); without it, in memory. */
    dir: z.string().min(1).optional(),
    description: z.string().optional(),
    recall: z.union([z.literal(false), z.object({ limit: positiveInt.optional(), maxTokens: positiveInt.optional() }).strict()]).optional(),
  })
  .strict();

/** An MCP server as `createAgent({ mcpServers })` takes it: a stdio `command` or an HTTP `url` (checked when it connects). */
const mcpServerSchema = z.record(z.string(), z.unknown());

/** The zod schema of `AgentSpec`. */
export const agentSpecSchema: z.ZodType<AgentSpec> = z.lazy(() =>
  z
    .object({
      name: z.string().min(1),
      description: z.string().optional(),
      instructions: z.string().optional(),
      model: z.string().min(1).optional(),
      tools: z.array(z.string().min(1)).optional(),
      maxSteps: positiveInt.optional(),
      toolConcurrency: z.union([positiveInt, z.literal('unbounded')]).optional(),
      askQuestion: z.boolean().optional(),
      skills: z.string().min(1).optional(),
      memory: z.array(memorySpecSchema).optional(),
      mcpServers: z.record(z.string(), mcpServerSchema).optional(),
      subagents: z.array(z.union([z.string().min(1), agentSpecSchema])).optional(),
      limits: limitsSchema.optional(),
      output: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
);

/** The keys a spec object may have, for "did you mean" (kept in step with `AgentSpec` by the compiler). */
export const AGENT_SPEC_KEYS: Readonly<Record<keyof AgentSpec, true>> = {
  name: true,
  description: true,
  instructions: true,
  model: true,
  tools: true,
  maxSteps: true,
  toolConcurrency: true,
  askQuestion: true,
  skills: true,
  memory: true,
  mcpServers: true,
  subagents: true,
  limits: true,
  output: true,
};

/** Known keys of the nested objects of a spec, by the name of their field. */
export const NESTED_SPEC_KEYS: Readonly<Record<string, readonly string[]>> = {
  limits: ['maxTokens', 'maxCostUsd', 'maxToolCalls', 'maxDurationMs'],
  memory: ['name', 'scope', 'dir', 'description', 'recall'],
  recall: ['limit', 'maxTokens'],
};
