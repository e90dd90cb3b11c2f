import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { ToolSpec } from '@lousho/protocol';
import { resolveToolDescriptor, type ResolvedTool } from './resolve-tool.js';
import { suggestToolName } from './tool-name.js';
import type { ToolDescriptor } from '@lousho/protocol';

export { resolveToolDescriptor, argumentSchemaOf, usesLegacyTool, type ResolvedTool } from './resolve-tool.js';

/** A descriptor that knows its own name, as `defineTool()` makes them. */
export type NamedToolDescriptor = ToolDescriptor & { readonly name: string };

/** What `registerMany()` and the constructor take: a record keyed by name, or named tools. */
export type ToolCollection = Readonly<Record<string, ToolDescriptor>> | readonly NamedToolDescriptor[];

interface Entry {
  tool: ResolvedTool;
  /** Which call registered it, for the duplicate message. */
  origin: string;
}

/**
 * The tools an agent may call, by name. Every descriptor is checked and normalized when it is
 * registered (so a bad one fails at startup), names are unique, and the order of registration is
 * the order tools are offered to the model.
 */
export class ToolRegistry {
  readonly #entries = new Map<string, Entry>();

  constructor(tools?: ToolCollection) {
    if (tools) this.#add(collect(tools, 'new ToolRegistry'));
  }

  /** Registers a `defineTool()` result (or any descriptor with a `name`). */
  register(tool: NamedToolDescriptor): this;
  /** Registers a raw descriptor (built-in, MCP, `ai` SDK `tool()`) under `name`. */
  register(name: string, descriptor: ToolDescriptor): this;
  register(toolOrName: NamedToolDescriptor | string, descriptor?: ToolDescriptor): this {
    if (typeof toolOrName === 'string') {
      this.#add([{ name: toolOrName, descriptor: descriptor as ToolDescriptor, origin: `register('${toolOrName}', descriptor)` }]);
      return this;
    }
    const name = (toolOrName as { name?: unknown } | null | undefined)?.name;
    if (typeof name !== 'string') {
      throw new SDKError(
        ERROR_CODES.LOUSHO_INVALID_TOOL_DEFINITION,
        'register(tool) needs a tool with a name. For a descriptor without one, call register(name, descriptor), e.g. register(\'current_date\', currentDateTool).',
        { hint: 'Use register(name, descriptor) for descriptors without a name.' },
      );
    }
    this.#add([{ name, descriptor: toolOrName, origin: 'register(tool)' }]);
    return this;
  }

  /** Registers a record of descriptors keyed by name, or an array of named tools. All or nothing. */
  registerMany(tools: ToolCollection): this {
    this.#add(collect(tools, 'registerMany'));
    return this;
  }

  /** Removes a tool; true when there was one. */
  unregister(name: string): boolean {
    return this.#entries.delete(name);
  }

  /** The normalized tool registered under `name` (a `ToolDescriptor` with every field settled). */
  get(name: string): ResolvedTool | undefined {
    return this.#entries.get(name)?.tool;
  }

  /** True when a tool is registered under `name`. */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Every tool, in registration order. */
  list(): ResolvedTool[] {
    return [...this.#entries.values()].map((entry) => entry.tool);
  }

  /** Every name, in registration order. */
  names(): string[] {
    return [...this.#entries.keys()];
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * What providers are told about the tools: all of them, or the ones in `names` (in that order,
   * duplicates dropped). A name the registry lacks throws `LOUSHO_UNKNOWN_TOOL`.
   */
  toToolSpecs(names?: readonly string[]): ToolSpec[] {
    const chosen = names === undefined ? this.names() : [...new Set(names)];
    const missing = chosen.filter((name) => !this.#entries.has(name));
    if (missing.length > 0) {
      const available = this.names().join(', ') || '(none)';
      throw new SDKError(
        ERROR_CODES.LOUSHO_UNKNOWN_TOOL,
        `No tool is registered as ${missing.map((n) => `'${n}'`).join(', ')}. Registered tools: ${available}.`,
        { hint: 'Register the tool before naming it (registry.register(name, descriptor)), or remove the name from the agent config.' },
      );
    }
    return chosen.map((name) => {
      const tool = this.#entries.get(name)!.tool;
      return { name: tool.name, description: tool.description, parameters: tool.jsonSchema };
    });
  }

  /** Resolves and checks a batch first, then adds it, so a failing batch leaves the registry as it was. */
  #add(batch: Pending[]): void {
    const resolved = new Map<string, Entry>();
    for (const { name, descriptor, origin } of batch) {
      const tool = resolveToolDescriptor(descriptor, name);
      const earlier = this.#entries.get(tool.name) ?? resolved.get(tool.name);
      if (earlier) throw duplicateError(tool.name, earlier, { tool, origin }, this.#freeName(tool.name, resolved));
      resolved.set(tool.name, { tool, origin });
    }
    for (const [name, entry] of resolved) this.#entries.set(name, entry);
  }

  #freeName(name: string, pending: Map<string, Entry>): string {
    const base = suggestToolName(name).slice(0, 60);
    for (let i = 2; ; i++) {
      const candidate = `${base}_${i}`;
      if (!this.#entries.has(candidate) && !pending.has(candidate)) return candidate;
    }
  }
}

interface Pending {
  name: string;
  descriptor: ToolDescriptor;
  origin: string;
}

function collect(tools: ToolCollection, call: string): Pending[] {
  if (Array.isArray(tools)) {
    return (tools as readonly NamedToolDescriptor[]).map((descriptor, index) => {
      const name = (descriptor as { name?: unknown } | null | undefined)?.name;
      if (typeof name !== 'string') {
        throw new SDKError(
          ERROR_CODES.LOUSHO_INVALID_TOOL_DEFINITION,
          `${call}([...]): item ${index} has no name. Arrays take defineTool() results; pass descriptors without a name as a record keyed by name: ${call}({ my_tool: descriptor }).`,
          { hint: `Use ${call}({ name: descriptor }) for descriptors without a name.` },
        );
      }
      return { name, descriptor, origin: `${call}([...]) item ${index}` };
    });
  }
  if (typeof tools !== 'object' || tools === null) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_TOOL_DEFINITION, `${call}() takes a record { name: descriptor } or an array of defined tools, got ${tools === null ? 'null' : typeof tools}.`, {
      hint: `Call ${call}({ my_tool: descriptor }) or ${call}([definedTool]).`,
    });
  }
  return Object.entries(tools).map(([name, descriptor]) => ({ name, descriptor, origin: `${call}({ ${name}: ... })` }));
}

/** Names a registration well enough to find it in code: where it came from, its label and description. */
function describeEntry({ tool, origin }: Entry): string {
  const description = tool.description.length > 60 ? `${tool.description.slice(0, 57)}...` : tool.description;
  const label = tool.displayName !== tool.name ? `"${tool.displayName}"` : 'a tool';
  return `${label}${description ? ` described as "${description}"` : ' without a description'}, from ${origin}`;
}

function duplicateError(name: string, first: Entry, second: Entry, freeName: string): SDKError {
  const same = first.tool.descriptor === second.tool.descriptor;
  const message =
    `Two tools are named '${name}': ${describeEntry(first)}, and ${describeEntry(second)}.` +
    (same ? ' It is the same descriptor registered twice.' : '') +
    ` Tool names must be unique: rename one (e.g. '${freeName}') or register it only once.`;
  return new SDKError(ERROR_CODES.LOUSHO_DUPLICATE_TOOL, message, {
    hint: same ? 'Register each tool once.' : `Rename one of the '${name}' tools, e.g. to '${freeName}'.`,
  });
}
