import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { JSONSchema } from '@lousho/protocol';
import { describeValue, isToolSchema, toolSchemaToJSONSchema } from './schema.js';
import { toolNameProblem } from './tool-name.js';
import type { DefinedTool, LegacyAiTool, NeedsApproval } from '@lousho/protocol';
import type { SandboxAdapter } from '@lousho/protocol';
import type { ToolExecutionContext, ToolSchema } from '@lousho/protocol';

/** The parsed (output) type of a schema: what `execute` and `needsApproval` receive. */
export type SchemaOutput<S> = S extends StandardSchemaV1<any, infer O> ? O : never;

/** What `defineTool()` takes; lousho-tools.md describes each option. Checked when the tool is defined. */
export interface DefineToolOptions<Name extends string, Schema extends ToolSchema<any, any>, Result> {
  /** What the model calls the tool by: 1-64 letters, digits, `_` and `-`. */
  name: Name;
  /** What the tool does and when to use it; the model reads it. */
  description: string;
  /** Schema of the arguments (zod 3, zod 4, or a Standard Schema with `~standard.jsonSchema`). Must describe an object. */
  input: Schema;
  /**
   * Runs the tool with the parsed arguments. Leave it out for a tool that runs in the browser
   * (`approvalKind: 'client'`): the run pauses on each call until the page sends its result.
   */
  execute?: (args: SchemaOutput<Schema>, ctx: ToolExecutionContext) => Result | Promise<Result>;
  /** Label for UIs; defaults to `name`. */
  displayName?: string;
  /** `true`, or a predicate of the parsed arguments, to pause for a human decision first. */
  needsApproval?: NeedsApproval<SchemaOutput<Schema>>;
  /**
   * `'question'` for a tool whose call asks the user something; `'client'` (the default without
   * `execute`) for one the page runs. The run always pauses on either.
   */
  approvalKind?: 'tool' | 'question' | 'client';
  /** Run through the configured `SandboxAdapter` (with `sandboxExecute`) instead of in-process. */
  requiresSandbox?: boolean;
  /** The sandboxed path used when `requiresSandbox` is true. */
  sandboxExecute?: (args: SchemaOutput<Schema>, sandbox: SandboxAdapter, ctx: ToolExecutionContext) => NoInfer<Result> | Promise<NoInfer<Result>>;
  /** Optional schema the result must match; a mismatch becomes an `output-validation` error result. */
  outputSchema?: ToolSchema<unknown, unknown>;
}

/**
 * A tool's result type: what `execute` returns, or, for a browser tool (no `execute`, so `unknown`),
 * what its `outputSchema` parses the page's result to.
 */
export type ResultOf<Result, Output> = unknown extends Result ? (Output extends ToolSchema<any, any> ? SchemaOutput<Output> : Result) : Result;

/**
 * Defines a typed tool. The name, the description and the schemas are checked now, so a bad
 * definition fails at startup with an `SDKError` (`LOUSHO_INVALID_TOOL_DEFINITION`) that says
 * what to change, instead of failing at the provider later.
 */
export function defineTool<const Name extends string, Schema extends ToolSchema<any, any>, Result, Output extends ToolSchema<any, any> | undefined = undefined>(
  options: DefineToolOptions<Name, Schema, Result> & { outputSchema?: Output },
): DefinedTool<Name, SchemaOutput<Schema>, ResultOf<Result, Output>> {
  assertValidDefinition(options);
  const { name, description, input } = options;
  const client = options.execute === undefined;
  const execute = options.execute ?? clientToolOnServer(name);
  const legacy: LegacyAiTool = Object.freeze({
    description,
    parameters: input,
    execute: (args: SchemaOutput<Schema>, options?: Partial<ToolExecutionContext>) => execute(args, legacyContext(options)),
  });
  const tool = {
    name,
    description,
    displayName: options.displayName ?? name,
    input,
    inputSchema: input,
    execute,
    tool: legacy,
    ...(options.needsApproval !== undefined ? { needsApproval: options.needsApproval } : {}),
    ...(client ? { approvalKind: 'client' as const } : options.approvalKind !== undefined ? { approvalKind: options.approvalKind } : {}),
    ...(options.requiresSandbox !== undefined ? { requiresSandbox: options.requiresSandbox } : {}),
    ...(options.sandboxExecute !== undefined ? { sandboxExecute: options.sandboxExecute } : {}),
    ...(options.outputSchema !== undefined ? { outputSchema: options.outputSchema } : {}),
  };
  return Object.freeze(tool) as DefinedTool<Name, SchemaOutput<Schema>, ResultOf<Result, Output>>;
}

/** The `execute` of a browser tool: called on the server (outside a run that pauses for it), it says where the tool runs. */
function clientToolOnServer(name: string): () => never {
  return () => {
    throw new SDKError(ERROR_CODES.LOUSHO_CLIENT_TOOL_ON_SERVER, `Tool '${name}' runs in the browser: it has no execute on the server.`, {
      hint: 'Run it through the agent loop, which pauses on the call until the page sends its result (client.submitToolResult(toolCallId, result), or a browserTools handler).',
    });
  };
}

let legacyCallCounter = 0;

/** An `ai` v4 caller passes `{ toolCallId, messages, abortSignal }` or nothing: make a full context. */
function legacyContext(options: Partial<ToolExecutionContext> | undefined): ToolExecutionContext {
  const ctx: ToolExecutionContext = {
    toolCallId: options?.toolCallId ?? `call_legacy_${(++legacyCallCounter).toString(36)}`,
    messages: options?.messages ?? [],
  };
  if (options?.abortSignal) ctx.abortSignal = options.abortSignal;
  if (options?.sessionId) ctx.sessionId = options.sessionId;
  return ctx;
}

// Options people reach for by habit from other SDKs, and what they mean here.
const MISPLACED_OPTIONS: Record<string, string> = {
  parameters: 'input',
  inputSchema: 'input',
  schema: 'input',
  args: 'input',
  handler: 'execute',
  run: 'execute',
  fn: 'execute',
};

function assertValidDefinition(options: unknown): void {
  if (typeof options !== 'object' || options === null) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_TOOL_DEFINITION, `defineTool() expects an options object, got ${describeValue(options)}.`, {
      hint: "Call defineTool({ name, description, input, execute }).",
    });
  }
  const o = options as Record<string, unknown>;
  const problems = [...definitionProblems(o)];
  if (problems.length === 0) return;
  const label = typeof o.name === 'string' && o.name ? `tool '${o.name}'` : 'a tool';
  const list = problems.map((p) => `\n  - ${p}`).join('');
  throw new SDKError(
    ERROR_CODES.LOUSHO_INVALID_TOOL_DEFINITION,
    `defineTool(): ${label} has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}:${list}`,
    { hint: problems[0] },
  );
}

function* definitionProblems(o: Record<string, unknown>): Generator<string> {
  const nameProblem = toolNameProblem(o.name);
  if (nameProblem) yield nameProblem;

  if (typeof o.description !== 'string' || o.description.trim() === '') {
    const what = o.description === undefined ? 'is missing' : typeof o.description !== 'string' ? `must be a string, got ${describeValue(o.description)}` : 'is empty';
    yield `description ${what}. Add a sentence that tells the model what the tool does and when to call it, e.g. description: 'Get the current weather for a city'.`;
  }

  yield* inputProblems(o);

  const misplacedExecute = Object.keys(MISPLACED_OPTIONS).find((k) => MISPLACED_OPTIONS[k] === 'execute' && typeof o[k] === 'function');
  if (o.execute === undefined && misplacedExecute) {
    yield `execute is missing; '${misplacedExecute}' is not an option of defineTool(). Rename it to execute: async (args, ctx) => { ... } (a tool without execute runs in the browser).`;
  } else if (o.execute === undefined && o.approvalKind !== undefined && o.approvalKind !== 'client') {
    yield `approvalKind '${String(o.approvalKind)}' needs execute: a tool without execute runs in the browser (approvalKind 'client'). Add execute, or remove approvalKind.`;
  } else if (o.execute === undefined && (o.requiresSandbox !== undefined || o.sandboxExecute !== undefined || o.needsApproval !== undefined)) {
    yield 'a tool without execute runs in the browser, so requiresSandbox, sandboxExecute and needsApproval do not apply (the run always pauses for the page). Add execute, or remove them.';
  } else if (o.execute === undefined) {
    // A tool for the browser: nothing to run here.
  } else if (o.approvalKind === 'client') {
    yield "approvalKind 'client' is for a tool the browser runs, so it has no execute. Remove execute (the page sends the result), or remove approvalKind.";
  } else if (typeof o.execute !== 'function') {
    const misplaced = Object.keys(MISPLACED_OPTIONS).find((k) => MISPLACED_OPTIONS[k] === 'execute' && typeof o[k] === 'function');
    yield misplaced
      ? `execute is missing; '${misplaced}' is not an option of defineTool(). Rename it to execute: async (args, ctx) => { ... }.`
      : `execute ${o.execute === undefined ? 'is missing' : `must be a function, got ${describeValue(o.execute)}`}. Add execute: async (args, ctx) => { ... } returning the tool's result.`;
  }

  if (o.displayName !== undefined && (typeof o.displayName !== 'string' || o.displayName.trim() === '')) {
    yield `displayName must be a non-empty string when given. Remove it to use the name, or set e.g. displayName: 'Weather'.`;
  }
  if (o.needsApproval !== undefined && typeof o.needsApproval !== 'boolean' && typeof o.needsApproval !== 'function') {
    yield `needsApproval must be true/false or a function (args, ctx) => boolean, got ${describeValue(o.needsApproval)}.`;
  }
  if (o.approvalKind !== undefined && o.approvalKind !== 'tool' && o.approvalKind !== 'question' && o.approvalKind !== 'client') {
    yield `approvalKind must be 'tool', 'question' or 'client', got ${JSON.stringify(o.approvalKind) ?? describeValue(o.approvalKind)}.`;
  }
  if (o.requiresSandbox !== undefined && typeof o.requiresSandbox !== 'boolean') {
    yield `requiresSandbox must be true or false, got ${describeValue(o.requiresSandbox)}.`;
  }
  if (o.sandboxExecute !== undefined && typeof o.sandboxExecute !== 'function') {
    yield `sandboxExecute must be a function (args, sandbox, ctx) => result, got ${describeValue(o.sandboxExecute)}.`;
  }
  if (o.outputSchema !== undefined && !isToolSchema(o.outputSchema)) {
    yield `outputSchema must be a schema (zod 3, zod 4 or another Standard Schema), got ${describeValue(o.outputSchema)}. Use e.g. outputSchema: z.object({ ... }), or remove it.`;
  }
}

function* inputProblems(o: Record<string, unknown>): Generator<string> {
  const input = o.input;
  if (input === undefined) {
    const misplaced = Object.keys(MISPLACED_OPTIONS).find((k) => MISPLACED_OPTIONS[k] === 'input' && o[k] !== undefined);
    yield misplaced
      ? `input is missing; '${misplaced}' is not an option of defineTool(). Pass the arguments schema as input: z.object({ ... }).`
      : 'input is missing. Pass a schema of the arguments, e.g. input: z.object({ city: z.string() }) (use z.object({}) for a tool without arguments).';
    return;
  }
  if (!isToolSchema(input)) {
    if (isShapeOfSchemas(input)) {
      yield 'input is a plain object of schemas, not a schema. Wrap it: input: z.object({ ... }).';
    } else if (typeof input === 'object' && input !== null && ('type' in input || 'properties' in input)) {
      yield "input looks like a JSON Schema. defineTool() needs a schema library's schema (e.g. z.object({ ... })); a ready JSON Schema belongs in a descriptor's `parameters`, registered with registry.register(name, descriptor).";
    } else {
      yield `input must be a zod 3, zod 4 or Standard Schema schema, got ${describeValue(input)}. Use e.g. input: z.object({ city: z.string() }).`;
    }
    return;
  }
  let jsonSchema: JSONSchema;
  try {
    jsonSchema = toolSchemaToJSONSchema(input);
  } catch (err) {
    const reason = err instanceof SDKError ? `${err.message} ${err.hint}`.trim() : String(err);
    yield `input cannot be described to the model: ${reason}`;
    return;
  }
  if (jsonSchema.type !== 'object') {
    const got = jsonSchema.type !== undefined ? `type ${JSON.stringify(jsonSchema.type)}` : Object.keys(jsonSchema).length === 0 ? 'any value' : 'a union/intersection without type "object"';
    const fix = 'allOf' in jsonSchema ? 'Merge the parts into one object, e.g. a.extend(b.shape).' : 'Wrap it, e.g. input: z.object({ value: <your schema> }).';
    yield `input must describe an object (providers send tool arguments as a JSON object), but it describes ${got}. ${fix}`;
  }
}

function isShapeOfSchemas(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every(isToolSchema);
}
