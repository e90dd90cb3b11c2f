import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { JSONSchema } from '@lousho/protocol';
import { describeValue, isToolSchema, toolSchemaToJSONSchema } from './schema.js';
import { toolNameProblem } from './tool-name.js';
import type { LegacyAiTool, NeedsApproval, ToolDescriptor } from '@lousho/protocol';
import type { SandboxAdapter } from '@lousho/protocol';
import type { ToolExecutionContext, ToolSchema } from '@lousho/protocol';

/**
 * A descriptor in the one shape the loop runs: every field settled, the legacy `ai` v4 `.tool`
 * folded in, the JSON Schema for providers computed. It is itself a `ToolDescriptor`
 * (`parameters` holds the JSON Schema), so code written against descriptors can use it as is.
 */
export interface ResolvedTool extends ToolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly displayName: string;
  /** The schema arguments are validated with: `inputSchema`, or a legacy `tool.parameters` schema. Unset: arguments pass through. */
  readonly inputSchema?: ToolSchema;
  /** JSON Schema of the arguments, as providers get it. */
  readonly jsonSchema: JSONSchema;
  /** Same object as `jsonSchema`. */
  readonly parameters: JSONSchema;
  /** The function that runs the call: `execute`, or the legacy `tool.execute`. */
  readonly execute?: (args: any, ctx: ToolExecutionContext) => unknown;
  readonly needsApproval?: NeedsApproval<any>;
  readonly approvalKind: 'tool' | 'question' | 'client';
  readonly requiresSandbox: boolean;
  /** The sandboxed path of a `requiresSandbox` tool. */
  readonly sandboxExecute?: (args: any, sandbox: SandboxAdapter, ctx: ToolExecutionContext) => unknown;
  readonly outputSchema?: ToolSchema<unknown, unknown>;
  /** The descriptor as it was given. */
  readonly descriptor: ToolDescriptor;
  /** True when the legacy `.tool` object supplied the schema and `execute`. */
  readonly legacy: boolean;
}

/** Arguments schema of a tool without a schema: an object with no declared properties. */
const EMPTY_OBJECT_SCHEMA: JSONSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/** The legacy `.tool` counts only when the descriptor sets neither `inputSchema` nor `execute`. */
export function usesLegacyTool(descriptor: ToolDescriptor): boolean {
  return descriptor.inputSchema === undefined && descriptor.execute === undefined && typeof descriptor.tool === 'object' && descriptor.tool !== null;
}

/** The schema the model's arguments are validated with, or `undefined` when they pass through unchanged. */
export function argumentSchemaOf(descriptor: ToolDescriptor): ToolSchema | undefined {
  if (isToolSchema(descriptor.inputSchema)) return descriptor.inputSchema;
  if (usesLegacyTool(descriptor)) return legacyParametersSchema(descriptor.tool!.parameters);
  return undefined;
}

/**
 * Normalizes a descriptor for the loop. `name` is the name it is registered under (defaults to
 * `descriptor.name`). Throws `SDKError` `LOUSHO_INVALID_TOOL_DEFINITION` when the descriptor cannot
 * be run or described to a model, with the fix in the message.
 */
export function resolveToolDescriptor(descriptor: ToolDescriptor, name: string | undefined = descriptor?.name): ResolvedTool {
  if (typeof descriptor !== 'object' || descriptor === null) {
    throw invalid(name, `the descriptor must be an object, got ${describeValue(descriptor)}. Pass a defineTool() result or { description, inputSchema, execute }.`);
  }
  const nameProblem = toolNameProblem(name, descriptor.name === undefined ? 'the registered name' : 'name');
  if (nameProblem) throw invalid(typeof name === 'string' ? name : undefined, nameProblem);
  const toolName = name as string;

  const legacy = usesLegacyTool(descriptor);
  const legacyTool: LegacyAiTool | undefined = legacy ? descriptor.tool : undefined;
  const inputSchema = argumentSchemaOf(descriptor);
  if (descriptor.inputSchema !== undefined && !isToolSchema(descriptor.inputSchema)) {
    throw invalid(toolName, `inputSchema must be a schema (zod 3, zod 4 or another Standard Schema), got ${describeValue(descriptor.inputSchema)}. A ready JSON Schema belongs in \`parameters\`.`);
  }
  const execute = descriptor.execute ?? legacyExecute(legacyTool);
  if (descriptor.execute !== undefined && typeof descriptor.execute !== 'function') {
    throw invalid(toolName, `execute must be a function, got ${describeValue(descriptor.execute)}.`);
  }
  if (!execute && typeof descriptor.sandboxExecute !== 'function' && descriptor.approvalKind !== 'question' && descriptor.approvalKind !== 'client') {
    if (!legacy && typeof descriptor.tool?.execute === 'function') {
      throw invalid(toolName, 'its legacy tool.execute is ignored because inputSchema is set. Move the function to the descriptor: { inputSchema, execute }.');
    }
    throw invalid(toolName, 'it has nothing to run: add execute: async (args, ctx) => result (or a legacy tool.execute, or sandboxExecute with requiresSandbox: true).');
  }

  const jsonSchema = argumentsJSONSchema(toolName, descriptor, legacyTool, inputSchema);
  const description = descriptor.description ?? legacyTool?.description ?? '';
  const resolved: ResolvedTool = {
    name: toolName,
    description: typeof description === 'string' ? description : String(description),
    displayName: typeof descriptor.displayName === 'string' && descriptor.displayName ? descriptor.displayName : toolName,
    jsonSchema,
    parameters: jsonSchema,
    approvalKind: descriptor.approvalKind === 'question' || descriptor.approvalKind === 'client' ? descriptor.approvalKind : 'tool',
    requiresSandbox: descriptor.requiresSandbox === true,
    descriptor,
    legacy,
    ...(inputSchema ? { inputSchema } : {}),
    ...(execute ? { execute } : {}),
    ...(descriptor.needsApproval !== undefined ? { needsApproval: descriptor.needsApproval } : {}),
    ...(typeof descriptor.sandboxExecute === 'function' ? { sandboxExecute: descriptor.sandboxExecute } : {}),
    ...(isToolSchema(descriptor.outputSchema) ? { outputSchema: descriptor.outputSchema } : {}),
  };
  return Object.freeze(resolved);
}

function invalid(name: string | undefined, problem: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_TOOL_DEFINITION, `Tool ${name ? `'${name}'` : 'descriptor'}: ${problem}`, { hint: problem });
}

function legacyExecute(legacyTool: LegacyAiTool | undefined): ResolvedTool['execute'] {
  const run = legacyTool?.execute;
  if (typeof run !== 'function') return undefined;
  // `ToolExecutionContext` carries everything `ai` v4's options had: toolCallId, messages, abortSignal.
  return (args, ctx) => run.call(legacyTool, args, ctx);
}

/** Provider JSON Schema: ready `parameters` first, then an `ai` jsonSchema() wrapper, then the schema's own, then plain legacy parameters. */
function argumentsJSONSchema(name: string, descriptor: ToolDescriptor, legacyTool: LegacyAiTool | undefined, inputSchema: ToolSchema | undefined): JSONSchema {
  if (descriptor.parameters !== undefined) {
    if (!isPlainJSONSchema(descriptor.parameters)) {
      throw invalid(name, `parameters must be a JSON Schema object, got ${describeValue(descriptor.parameters)}. Put a zod/Standard Schema in inputSchema instead.`);
    }
    return descriptor.parameters;
  }
  const legacyParameters = legacyTool?.parameters;
  const wrapped = aiJSONSchemaOf(legacyParameters);
  if (wrapped) return wrapped;
  if (inputSchema) {
    try {
      return toolSchemaToJSONSchema(inputSchema);
    } catch (err) {
      const reason = err instanceof SDKError ? `${err.message} ${err.hint}`.trim() : String(err);
      throw invalid(name, `its input schema cannot be described to the model: ${reason}`);
    }
  }
  if (isPlainJSONSchema(legacyParameters)) return legacyParameters;
  return EMPTY_OBJECT_SCHEMA;
}

function isPlainJSONSchema(value: unknown): value is JSONSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isToolSchema(value);
}

/** The `ai` SDK's `jsonSchema()` helper wraps a JSON Schema as `{ jsonSchema, validate? }`. */
function aiJSONSchemaOf(value: unknown): JSONSchema | undefined {
  if (typeof value !== 'object' || value === null || isToolSchema(value)) return undefined;
  const inner = (value as { jsonSchema?: unknown }).jsonSchema;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as JSONSchema) : undefined;
}

type AiValidation = { success: true; value: unknown } | { success: false; error?: unknown };

// Adapters are kept per wrapper so re-resolving a descriptor yields the same schema object.
const aiSchemaAdapters = new WeakMap<object, ToolSchema>();

/** A legacy `tool.parameters`: a schema as is, or an `ai` `jsonSchema()` wrapper with `validate` as a Standard Schema. */
function legacyParametersSchema(parameters: unknown): ToolSchema | undefined {
  if (isToolSchema(parameters)) return parameters;
  if (!aiJSONSchemaOf(parameters)) return undefined;
  const validate = (parameters as { validate?: unknown }).validate;
  if (typeof validate !== 'function') return undefined;
  const wrapper = parameters as object;
  let adapter = aiSchemaAdapters.get(wrapper);
  if (!adapter) {
    const props: StandardSchemaV1.Props = {
      version: 1,
      vendor: 'ai',
      validate: async (value) => {
        const outcome = (await (validate as (v: unknown) => AiValidation | PromiseLike<AiValidation>).call(wrapper, value)) as AiValidation;
        if (outcome.success) return { value: outcome.value };
        const error = outcome.error;
        const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'Invalid value';
        return { issues: [{ message }] };
      },
    };
    adapter = { '~standard': props };
    aiSchemaAdapters.set(wrapper, adapter);
  }
  return adapter;
}
