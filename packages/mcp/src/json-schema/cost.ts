import { ERROR_CODES, SDKError } from '@lousho/core';
import { isJsonObject, type JsonObject } from './json-value.js';
import { resolvePointer } from './sanitize.js';

/*
 * A compiled validator is linear in the value only if each part of the value meets a bounded number
 * of subschemas. References and combinators can break that: `d0: { allOf: [$ref d1, $ref d1] }` ...
 * checks one value 2^N times, and `a: { anyOf: [$ref a] }` never ends. Before a schema is compiled,
 * this walks it the way a validator walks a value (same value: `$ref`, `allOf`, `anyOf`, `oneOf`,
 * `not`, `if`/`then`/`else`; a child value: `properties`, `items`, ...) and refuses a schema where
 * one value could meet more than MAX_CHECKS_PER_VALUE subschemas, or where a reference loops back
 * without going into a child value.
 */

/** Most subschemas one part of a value may be checked against. */
export const MAX_CHECKS_PER_VALUE = 2000;
/** Most steps the walk takes (past them the schema is refused as too costly to bound). */
const MAX_STEPS = 200_000;
/** How many levels of a value the walk follows (deeper levels repeat the states already seen). */
const MAX_VALUE_DEPTH = 64;

const SAME_VALUE_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'];

type Counts = Map<JsonObject, number>;

/** Throws LOUSHO_UNSUPPORTED_SCHEMA when checking a value against `root` would not be linear in the value. */
export function checkValidationCost(root: unknown, who = 'The schema'): void {
  if (!isJsonObject(root)) return;
  new CostWalk(root, who).run();
}

class CostWalk {
  readonly #expanded = new Map<JsonObject, Counts>();
  readonly #expanding = new Set<JsonObject>();
  readonly #seen = new Set<string>();
  readonly #ids = new Map<JsonObject, number>();
  #steps = 0;

  constructor(
    readonly root: JsonObject,
    readonly who: string,
  ) {}

  run(): void {
    this.#explore(new Map([[this.root, 1]]), 0);
  }

  /** One part of a value, checked against `state` (subschemas with how many times each is reached). */
  #explore(state: Counts, depth: number): void {
    if (depth > MAX_VALUE_DEPTH) return;
    const all = this.#sameValue(state);
    const total = [...all.values()].reduce((sum, count) => sum + count, 0);
    if (total > MAX_CHECKS_PER_VALUE) this.#refuse(`one value would be checked against ${total > 1e15 ? 'more than 10^15' : total} subschemas (its references and combinators multiply)`);
    // Subschemas that reach into child values decide what comes next; the rest end here.
    const key = this.#key(all);
    if (key === '' || this.#seen.has(key)) return;
    this.#seen.add(key);
    for (const next of this.#children(all)) if (next.size > 0) this.#explore(next, depth + 1);
  }

  /** `state` with every subschema that checks the same value (through `$ref` and the combinators) added in. */
  #sameValue(state: Counts): Counts {
    const out: Counts = new Map();
    for (const [node, count] of state) for (const [reached, times] of this.#expand(node)) add(out, reached, count * times);
    return out;
  }

  /** The subschemas `node` applies to its own value, itself included, with multiplicity. */
  #expand(node: JsonObject): Counts {
    const known = this.#expanded.get(node);
    if (known) return known;
    if (this.#expanding.has(node)) this.#refuse('a reference leads back to itself without going into a part of the value (it would never end)');
    this.#expanding.add(node);
    const out: Counts = new Map([[node, 1]]);
    for (const child of this.#sameValueChildren(node)) {
      for (const [reached, times] of this.#expand(child)) {
        add(out, reached, times);
        if (++this.#steps > MAX_STEPS) this.#refuse('it is too large to bound the cost of checking a value');
      }
    }
    this.#expanding.delete(node);
    const total = [...out.values()].reduce((sum, count) => sum + count, 0);
    if (total > MAX_CHECKS_PER_VALUE) this.#refuse(`one value would be checked against ${total > 1e15 ? 'more than 10^15' : total} subschemas (its references and combinators multiply)`);
    this.#expanded.set(node, out);
    return out;
  }

  #sameValueChildren(node: JsonObject): JsonObject[] {
    const out: JsonObject[] = [];
    if (typeof node.$ref === 'string') {
      const target = resolvePointer(this.root, node.$ref);
      if (isJsonObject(target)) out.push(target);
    }
    for (const key of SAME_VALUE_LISTS) if (Array.isArray(node[key])) for (const branch of node[key] as unknown[]) if (isJsonObject(branch)) out.push(branch);
    for (const key of SAME_VALUE_ONE) if (isJsonObject(node[key])) out.push(node[key] as JsonObject);
    return out;
  }

  /** What each kind of child value is checked against: one state per property name, other keys, array items, key names. */
  #children(all: Counts): Counts[] {
    const names = new Set<string>();
    for (const node of all.keys()) if (isJsonObject(node.properties)) for (const name of Object.keys(node.properties)) names.add(name);
    const states: Counts[] = [];
    for (const name of names) {
      const next: Counts = new Map();
      for (const [node, count] of all) {
        const own = isJsonObject(node.properties) && Object.prototype.hasOwnProperty.call(node.properties, name) ? (node.properties as JsonObject)[name] : undefined;
        if (isJsonObject(own)) add(next, own, count);
        this.#otherKeys(node, count, next, own !== undefined);
      }
      states.push(next);
    }
    const other: Counts = new Map();
    const items: Counts = new Map();
    const keyNames: Counts = new Map();
    for (const [node, count] of all) {
      this.#otherKeys(node, count, other, false);
      for (const key of ['items', 'additionalItems', 'contains']) if (isJsonObject(node[key])) add(items, node[key] as JsonObject, count);
      // Tuple items: each position is its own part of the value; counted together, which only overestimates.
      if (Array.isArray(node.items)) for (const item of node.items) if (isJsonObject(item)) add(items, item, count);
      if (isJsonObject(node.propertyNames)) add(keyNames, node.propertyNames, count);
    }
    states.push(other, items, keyNames);
    if (++this.#steps > MAX_STEPS) this.#refuse('it is too large to bound the cost of checking a value');
    return states;
  }

  /** `patternProperties` (any may match) and `additionalProperties` (for a key `node` does not name). */
  #otherKeys(node: JsonObject, count: number, into: Counts, named: boolean): void {
    if (isJsonObject(node.patternProperties)) for (const schema of Object.values(node.patternProperties)) if (isJsonObject(schema)) add(into, schema, count);
    if (!named && isJsonObject(node.additionalProperties)) add(into, node.additionalProperties, count);
  }

  /** The subschemas that reach into child values, with their counts: equal keys mean equal futures. */
  #key(all: Counts): string {
    const parts: string[] = [];
    for (const [node, count] of all) if (reachesChildren(node)) parts.push(`${this.#id(node)}x${count}`);
    return parts.sort().join(',');
  }

  #id(node: JsonObject): number {
    let id = this.#ids.get(node);
    if (id === undefined) this.#ids.set(node, (id = this.#ids.size));
    return id;
  }

  #refuse(why: string): never {
    throw new SDKError(ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA, `${this.who} is refused: ${why}.`, {
      hint: 'A schema must check each part of a value against a bounded number of subschemas; write the repeated parts out once.',
    });
  }
}

function reachesChildren(node: JsonObject): boolean {
  return ['properties', 'patternProperties', 'additionalProperties', 'items', 'additionalItems', 'contains', 'propertyNames'].some((key) => isJsonObject(node[key]) || (key === 'items' && Array.isArray(node[key])));
}

function add(into: Counts, node: JsonObject, count: number): void {
  into.set(node, (into.get(node) ?? 0) + count);
}
