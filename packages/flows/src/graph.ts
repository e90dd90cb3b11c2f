import { ExpressionError } from './expression/errors.js';
import { tokenize } from './expression/tokenizer.js';
import { parse } from './expression/parser.js';
import type { NodeDefinition, RuntimeCondition, Work } from './definition.js';
import { FlowDefinitionError } from './errors.js';

/** Ids name variables in expressions, so they are identifiers, and not ones the language reserves. */
const ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const RESERVED_IDS = new Set(['input', 'true', 'false', 'null', 'constructor', 'prototype', '__proto__']);
/** Most passes a loop may allow. */
export const MAX_LOOP_PASSES = 10_000;

/** The checked graph of a flow and what the executor looks up while it runs. */
export interface FlowGraph {
  readonly nodes: ReadonlyMap<string, NodeDefinition>;
  /** Declaration order. */
  readonly order: readonly string[];
  /** Nodes that run after each node. */
  readonly dependents: ReadonlyMap<string, readonly string[]>;
  /** The outputs each node sees: its ancestors, plus the nodes of any loop body it is in. */
  readonly visible: ReadonlyMap<string, readonly string[]>;
  /** For each loop: the nodes it runs again (from `to` up to, not including, the loop node). */
  readonly loopBodies: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Checks a flow's nodes and builds its graph; throws a `FlowDefinitionError` naming the node at fault. */
export function buildGraph(flow: string, definitions: readonly NodeDefinition[]): FlowGraph {
  const fail = (node: string, message: string, hint: string): never => {
    throw new FlowDefinitionError(flow, node, message, hint);
  };
  if (typeof flow !== 'string' || flow.trim() === '') fail(String(flow), 'a flow needs a name.', "Pass one to FlowBuilder.create('name').");
  if (definitions.length === 0) fail(flow, 'it has no nodes.', 'Add a node, e.g. .step(id, fn) or .agent(id, { agent, input }).');

  const nodes = new Map<string, NodeDefinition>();
  for (const node of definitions) {
    const id = node.id as unknown;
    if (typeof id !== 'string' || !ID_PATTERN.test(id) || RESERVED_IDS.has(id)) {
      fail(String(id), `the node id ${JSON.stringify(id)} cannot name a variable.`, "Use letters, digits and '_' (not starting with a digit, at most 64), and not 'input', 'true', 'false' or 'null'.");
    }
    if (nodes.has(node.id)) fail(node.id, `two nodes have the id '${node.id}'.`, 'Give every node its own id: it names the node\'s output.');
    nodes.set(node.id, node);
  }

  for (const node of definitions) checkShape(flow, node, fail);

  // Dependencies name nodes of this flow.
  for (const node of definitions) {
    for (const dep of node.after.ids) {
      if (typeof dep !== 'string' || !nodes.has(dep)) {
        fail(node.id, `node '${node.id}' runs after ${JSON.stringify(dep)}, which is not a node of this flow.`, 'Check the ids in `after`.');
      }
      if (dep === node.id) fail(node.id, `node '${node.id}' runs after itself.`, 'A node cannot wait for itself; use .loop() to go round.');
    }
    if (node.after.mode === 'any' && node.after.ids.length === 0) fail(node.id, `node '${node.id}' has an empty \`after: { any: [] }\`.`, 'List the nodes it may run after.');
  }

  const dependents = new Map<string, string[]>(definitions.map((n) => [n.id, []]));
  for (const node of definitions) for (const dep of new Set(node.after.ids)) dependents.get(dep)!.push(node.id);

  // Branch targets exist and run after their oneOf.
  for (const node of definitions) {
    if (node.kind !== 'oneOf') continue;
    const targets = [...node.branches.map((b) => b.then), ...(node.otherwise !== undefined ? [node.otherwise] : [])];
    for (const target of targets) {
      if (!nodes.has(target)) fail(node.id, `oneOf '${node.id}' has a branch to '${target}', which is not a node of this flow.`, 'Each branch names the node it runs with `then`.');
      if (target === node.id) fail(node.id, `oneOf '${node.id}' has a branch to itself.`, 'A branch names a node that runs after the oneOf.');
      if (!nodes.get(target)!.after.ids.includes(node.id)) {
        fail(target, `node '${target}' is a branch of oneOf '${node.id}' but does not run after it.`, `Add after: '${node.id}' to node '${target}'.`);
      }
    }
  }

  const order = topologicalOrder(definitions, dependents, fail);
  const ancestors = new Map<string, Set<string>>();
  for (const id of order) {
    const set = new Set<string>();
    for (const dep of nodes.get(id)!.after.ids) {
      set.add(dep);
      for (const a of ancestors.get(dep)!) set.add(a);
    }
    ancestors.set(id, set);
  }

  // Loops go back to a node they run after; their bodies nest or stay apart.
  const loopBodies = new Map<string, Set<string>>();
  for (const node of definitions) {
    if (node.kind !== 'loop') continue;
    if (!nodes.has(node.to)) fail(node.id, `loop '${node.id}' goes back to '${node.to}', which is not a node of this flow.`, 'Name a node the loop runs after in `to`.');
    if (!ancestors.get(node.id)!.has(node.to)) {
      fail(node.id, `loop '${node.id}' goes back to '${node.to}', which does not run before it.`, `Make '${node.id}' run after '${node.to}' (directly or through other nodes).`);
    }
    const body = new Set<string>([node.to]);
    for (const id of ancestors.get(node.id)!) if (ancestors.get(id)!.has(node.to)) body.add(id);
    loopBodies.set(node.id, body);
  }
  for (const [a, bodyA] of loopBodies) {
    for (const [b, bodyB] of loopBodies) {
      if (a === b || !bodyB.has(a)) continue;
      // Loop `a` sits inside loop `b`'s body: its whole body must too.
      for (const id of bodyA) if (!bodyB.has(id)) fail(a, `loop '${a}' overlaps loop '${b}': '${id}' is in the body of '${a}' but not of '${b}'.`, 'Nest loops fully, or keep them apart.');
    }
    for (const [b, bodyB] of loopBodies) {
      if (a === b || bodyB.has(a) || bodyA.has(b)) continue;
      for (const id of bodyA) if (bodyB.has(id)) fail(a, `loops '${a}' and '${b}' share '${id}' without one being inside the other.`, 'Nest loops fully, or keep them apart.');
    }
  }

  checkReachable(definitions, nodes, order, fail);

  const visible = new Map<string, string[]>();
  for (const id of order) {
    const set = new Set(ancestors.get(id));
    for (const [loop, body] of loopBodies) {
      if (!body.has(id)) continue;
      for (const mate of body) if (mate !== id) set.add(mate);
      set.add(loop);
    }
    visible.set(id, [...set]);
  }

  return { nodes, order: definitions.map((n) => n.id), dependents, visible, loopBodies };
}

type Fail = (node: string, message: string, hint: string) => never;

/** Kahn's order over `after` edges; a cycle is reported with its nodes. */
function topologicalOrder(definitions: readonly NodeDefinition[], dependents: Map<string, string[]>, fail: Fail): string[] {
  const waiting = new Map(definitions.map((n) => [n.id, new Set(n.after.ids).size]));
  const ready = definitions.filter((n) => waiting.get(n.id) === 0).map((n) => n.id);
  const order: string[] = [];
  while (ready.length > 0) {
    const id = ready.shift()!;
    order.push(id);
    for (const next of dependents.get(id)!) {
      const left = waiting.get(next)! - 1;
      waiting.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (order.length === definitions.length) return order;
  // Walk back along `after` from a node left over until a node repeats: that is the cycle.
  const byId = new Map(definitions.map((n) => [n.id, n]));
  const left = new Set(definitions.map((n) => n.id).filter((id) => !order.includes(id)));
  let at = [...left][0]!;
  const trail: string[] = [];
  while (!trail.includes(at)) {
    trail.push(at);
    at = byId.get(at)!.after.ids.find((dep) => left.has(dep))!;
  }
  const cycle = trail.slice(trail.indexOf(at)).reverse();
  return fail(
    cycle[0]!,
    `the nodes ${[...cycle, cycle[0]].map((id) => `'${id}'`).join(' → ')} form a cycle without a bound.`,
    'A flow goes round only through .loop(id, { to, while, max }); make the first node of the cycle run after something else.',
  );
}

/**
 * A node that needs (through `after`) two different branches of one oneOf can never run; neither
 * can a node that only runs after such nodes.
 */
function checkReachable(definitions: readonly NodeDefinition[], nodes: Map<string, NodeDefinition>, order: readonly string[], fail: Fail): void {
  const targetsOf = new Map<string, Set<string>>();
  for (const node of definitions) {
    if (node.kind !== 'oneOf') continue;
    targetsOf.set(node.id, new Set([...node.branches.map((b) => b.then), ...(node.otherwise !== undefined ? [node.otherwise] : [])]));
  }
  // For each node: the branch it needs per oneOf ('oneOf' → target).
  const needs = new Map<string, Map<string, string>>();
  for (const id of order) {
    const node = nodes.get(id)!;
    const own = new Map<string, string>();
    for (const dep of node.after.ids) if (targetsOf.get(dep)?.has(id)) own.set(dep, id);
    const fromDeps = node.after.ids.map((dep) => needs.get(dep)!);
    let merged: Map<string, string>;
    if (node.after.mode === 'all') {
      merged = new Map(own);
      for (const map of fromDeps) {
        for (const [oneOf, target] of map) {
          const other = merged.get(oneOf);
          if (other !== undefined && other !== target) {
            fail(
              id,
              `node '${id}' can never run: it runs after both '${other}' and '${target}', which are alternative branches of '${oneOf}'.`,
              `Join branches with after: { any: [...] } to run '${id}' after whichever branch ran.`,
            );
          }
          merged.set(oneOf, target);
        }
      }
    } else {
      // After any: only what every dependency needs is needed.
      merged = new Map(own);
      const [first, ...rest] = fromDeps;
      for (const [oneOf, target] of first ?? []) if (rest.every((map) => map.get(oneOf) === target)) merged.set(oneOf, target);
    }
    needs.set(id, merged);
  }
}

/** Checks what each kind of node needs, so a mistake fails at build time rather than mid-run. */
function checkShape(flow: string, node: NodeDefinition, fail: Fail): void {
  const id = node.id;
  const condition = (value: RuntimeCondition, what: string): void => {
    if (typeof value === 'function') return;
    if (typeof value !== 'string') fail(id, `${what} of node '${id}' must be an expression string or a function.`, "E.g. \"classify === 'refund'\".");
    checkExpression(value as string, `${what} of node '${id}'`);
  };
  const checkExpression = (expression: string, what: string): void => {
    try {
      const tokens = tokenize(expression);
      // Without bare placeholders the structure is fixed, so it can be checked now.
      if (!tokens.some((t) => t.t === 'placeholder')) {
        parse(expression, tokens.map((t) => (t.t === 'string' ? { t: 'value', value: '', pos: t.pos } : t)));
      }
    } catch (error) {
      if (error instanceof ExpressionError) fail(id, `${what} is not a valid expression: ${error.message}`, 'See "Flow expressions" in docs/flows.md.');
      throw error;
    }
  };
  const work = (w: Work, what: string): void => {
    if (w.kind === 'agent') {
      if (typeof (w.agent as { send?: unknown })?.send !== 'function') fail(id, `${what} needs an \`agent\` with send() (a createAgent() agent).`, 'Pass agent: createAgent({ ... }).');
      if (typeof w.input !== 'string' && typeof w.input !== 'function') fail(id, `${what} needs an \`input\`: a template string or a function.`, "E.g. input: 'Classify: {{input.message}}'.");
      if (w.output !== undefined && typeof (w.output as { '~standard'?: unknown })['~standard'] !== 'object') fail(id, `the \`output\` of ${what} is not a schema.`, 'Pass a zod (or any Standard Schema) schema.');
    } else if (w.kind === 'tool') {
      if (typeof w.tool?.execute !== 'function') fail(id, `${what} needs a \`tool\` with execute() (a defineTool() tool).`, 'Pass tool: defineTool({ ... }).');
      if (w.args === null || (typeof w.args !== 'object' && typeof w.args !== 'function')) fail(id, `${what} needs \`args\`: an object or a function.`, 'E.g. args: { orderId: \'{{order.id}}\' }.');
    } else if (typeof w.run !== 'function') {
      fail(id, `${what} needs a function.`, 'Pass run: (vars, ctx) => value.');
    }
  };
  const label = `node '${id}'`;
  switch (node.kind) {
    case 'agent':
    case 'tool':
    case 'step':
      work(node.work, label);
      break;
    case 'evaluator':
      if (typeof node.expression !== 'string') fail(id, `evaluator '${id}' needs an \`expression\` string.`, "E.g. expression: '{{score}} >= 90'.");
      checkExpression(node.expression, `the expression of evaluator '${id}'`);
      break;
    case 'oneOf':
      if (!Array.isArray(node.branches) || node.branches.length === 0) fail(id, `oneOf '${id}' needs at least one branch.`, "branches: [{ when: \"...\", then: 'node' }].");
      node.branches.forEach((branch, i) => {
        if (typeof branch.then !== 'string') fail(id, `branch ${i} of oneOf '${id}' needs \`then\`: the id of the node it runs.`, "E.g. { when: \"classify === 'refund'\", then: 'refund' }.");
        condition(branch.when, `the condition of branch ${i}`);
      });
      if (node.otherwise !== undefined && typeof node.otherwise !== 'string') fail(id, `\`otherwise\` of oneOf '${id}' must be a node id.`, 'Name the node to run when no branch matches.');
      break;
    case 'parallel': {
      const c = node.concurrency;
      if (!(c === Infinity || (Number.isInteger(c) && c >= 1))) fail(id, `the concurrency of parallel '${id}' must be a positive integer, got ${String(c)}.`, 'Leave it out for no limit.');
      if (node.forEach !== undefined) {
        if (typeof node.forEach !== 'function') fail(id, `\`forEach\` of parallel '${id}' must be a function returning the items.`, 'forEach: (vars) => vars.input.items.');
        work(node.each!, `the \`each\` of parallel '${id}'`);
      } else {
        const names = Object.keys(node.branches ?? {});
        if (names.length === 0) fail(id, `parallel '${id}' needs branches (or forEach and each).`, 'branches: { a: { run: ... }, b: { agent, input } }.');
        for (const name of names) work(node.branches![name]!, `branch '${name}' of parallel '${id}'`);
      }
      break;
    }
    case 'approval':
      if (node.onReject !== 'skip' && node.onReject !== 'continue') fail(id, `onReject of approval '${id}' must be 'skip' or 'continue'.`, "Leave it out for 'skip'.");
      if (node.title !== undefined && typeof node.title !== 'string' && typeof node.title !== 'function') fail(id, `the title of approval '${id}' must be a string or a function.`, 'E.g. title: \'Send the reply to {{input.email}}?\'.');
      break;
    case 'loop':
      if (typeof node.to !== 'string') fail(id, `loop '${id}' needs \`to\`: the node it goes back to.`, "E.g. to: 'draft'.");
      if (!Number.isInteger(node.max) || node.max < 1 || node.max > MAX_LOOP_PASSES) {
        fail(id, `loop '${id}' needs \`max\`: a whole number of passes from 1 to ${MAX_LOOP_PASSES}, got ${String(node.max)}.`, 'Every loop is bounded: e.g. max: 3.');
      }
      condition(node.while, `the \`while\` condition`);
      break;
    default:
      fail(id, `node '${id}' has an unknown kind.`, `Build nodes with the FlowBuilder methods (flow '${flow}').`);
  }
}
