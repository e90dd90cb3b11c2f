import { describe, expect, it } from 'vitest';
import { FlowBuilder, FlowDefinitionError } from '../../src/index.js';

/** The FlowDefinitionError `build` throws (fails when it builds). */
function buildError(make: () => unknown): FlowDefinitionError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(FlowDefinitionError);
    expect((error as FlowDefinitionError).code).toBe('LOUSHO_FLOW_INVALID');
    return error as FlowDefinitionError;
  }
  throw new Error('expected build() to throw');
}

const noop = () => 1;
// Untyped on purpose: these graphs are wrong in ways the types would already refuse.
const any = FlowBuilder.create<{ text: string }>('checks') as any;

describe('FlowBuilder.build() checks the graph and names the node at fault', () => {
  it('builds a valid flow and lists its nodes', () => {
    const flow = FlowBuilder.create<{ text: string }>('ok')
      .step('a', noop)
      .oneOf('route', { branches: [{ when: 'a > 0', then: 'b' }], otherwise: 'c' })
      .step('b', noop, { after: 'route', label: 'Big' })
      .step('c', noop, { after: 'route' })
      .step('join', noop, { after: { any: ['b', 'c'] } })
      .build();
    expect(flow.name).toBe('ok');
    expect(flow.nodes.map((n) => [n.id, n.kind, n.label, n.after.mode, n.after.ids])).toEqual([
      ['a', 'step', 'a', 'all', []],
      ['route', 'oneOf', 'route', 'all', ['a']],
      ['b', 'step', 'Big', 'all', ['route']],
      ['c', 'step', 'c', 'all', ['route']],
      ['join', 'step', 'join', 'any', ['b', 'c']],
    ]);
  });

  it('an unknown id in `after`', () => {
    const error = buildError(() => any.step('a', noop).step('b', noop, { after: 'nope' }).build());
    expect(error.node).toBe('b');
    expect(error.message).toContain("node 'b' runs after \"nope\", which is not a node of this flow");
  });

  it('an unknown branch target', () => {
    const error = buildError(() => any.step('a', noop).oneOf('route', { branches: [{ when: 'true', then: 'ghost' }] }).build());
    expect(error.node).toBe('route');
    expect(error.message).toContain("branch to 'ghost'");
  });

  it('a branch target that does not run after its oneOf', () => {
    const error = buildError(() =>
      any
        .step('a', noop)
        .oneOf('route', { branches: [{ when: 'true', then: 'b' }], otherwise: 'c' })
        .step('b', noop, { after: 'route' })
        .step('c', noop)
        .build(),
    );
    expect(error.node).toBe('c');
    expect(error.message).toContain("node 'c' is a branch of oneOf 'route' but does not run after it");
    expect(error.hint).toContain("after: 'route'");
  });

  it('an unreachable node: one needing two alternative branches', () => {
    const error = buildError(() =>
      any
        .step('a', noop)
        .oneOf('route', { branches: [{ when: 'true', then: 'b' }], otherwise: 'c' })
        .step('b', noop, { after: 'route' })
        .step('c', noop, { after: 'route' })
        .step('both', noop, { after: ['b', 'c'] })
        .build(),
    );
    expect(error.node).toBe('both');
    expect(error.message).toContain("can never run: it runs after both 'b' and 'c', which are alternative branches of 'route'");
    expect(error.hint).toContain('any');
  });

  it('a cycle without a bound', () => {
    const error = buildError(() => any.step('a', noop, { after: 'c' }).step('b', noop).step('c', noop).build());
    expect(['a', 'b', 'c']).toContain(error.node);
    expect(error.message).toMatch(/the nodes '(a|b|c)' → '(a|b|c)' → '(a|b|c)' → '(a|b|c)' form a cycle without a bound/);
    expect(error.hint).toContain('.loop(');
  });

  it('a node running after itself', () => {
    expect(buildError(() => any.step('a', noop, { after: 'a' }).build()).node).toBe('a');
  });

  it('a loop must go back to a node it runs after, with a bounded max', () => {
    expect(buildError(() => any.step('a', noop).step('b', noop, { after: [] }).loop('again', { to: 'b', while: 'true', max: 3, after: 'a' }).build()).message).toContain(
      "loop 'again' goes back to 'b', which does not run before it",
    );
    expect(buildError(() => any.step('a', noop).loop('again', { to: 'a', while: 'true', max: 0 }).build()).message).toContain('needs `max`');
    expect(buildError(() => any.step('a', noop).loop('again', { to: 'a', while: 'true', max: Infinity }).build()).node).toBe('again');
    expect(buildError(() => any.step('a', noop).loop('again', { to: 'zzz', while: 'true', max: 2 }).build()).message).toContain("goes back to 'zzz'");
  });

  it('loops nest or stay apart', () => {
    const error = buildError(() =>
      any
        .step('a', noop)
        .step('b', noop)
        .step('c', noop)
        .loop('l1', { to: 'a', while: 'false', max: 2, after: 'b' })
        .loop('l2', { to: 'b', while: 'false', max: 2, after: 'c' })
        .build(),
    );
    expect(['l1', 'l2']).toContain(error.node);
    expect(error.message).toContain('share');
  });

  it('ids: unique, usable as variables, not reserved', () => {
    expect(buildError(() => any.step('a', noop).step('a' as never, noop).build()).message).toContain("two nodes have the id 'a'");
    expect(buildError(() => any.step('draft-reply', noop).build()).node).toBe('draft-reply');
    expect(buildError(() => any.step('input' as never, noop).build()).message).toContain('cannot name a variable');
    expect(buildError(() => any.step('1st', noop).build()).node).toBe('1st');
  });

  it('expressions are checked when the flow is built', () => {
    const error = buildError(() => any.step('a', noop).evaluator('score', { expression: 'a = 1' }).build());
    expect(error.node).toBe('score');
    expect(error.message).toContain("the expression of evaluator 'score' is not a valid expression");
    expect(error.message).toContain('assignment');
    expect(buildError(() => any.step('a', noop).oneOf('r', { branches: [{ when: 'a.constructor', then: 'b' }] }).step('b', noop, { after: 'r' }).build()).node).toBe('r');
    // With a bare placeholder the structure depends on the values: checked when it runs.
    expect(() => any.step('a', noop).evaluator('score', { expression: '{{a}} >= 1' }).build()).not.toThrow();
  });

  it('what each kind needs', () => {
    expect(buildError(() => any.agent('a', { agent: {} as never, input: 'x' }).build()).message).toContain('needs an `agent` with send()');
    expect(buildError(() => any.tool('t', { tool: {} as never, args: {} }).build()).message).toContain('needs a `tool` with execute()');
    expect(buildError(() => any.step('s', 'nope' as never).build()).message).toContain('needs a function');
    expect(buildError(() => any.step('a', noop).oneOf('r', { branches: [] }).build()).message).toContain('at least one branch');
    expect(buildError(() => any.parallel('p', { branches: {} }).build()).message).toContain('needs branches');
    expect(buildError(() => any.parallel('p', { branches: { x: { run: noop } }, concurrency: 0 }).build()).message).toContain('concurrency');
    expect(buildError(() => any.approval('ok', { onReject: 'explode' as never }).build()).message).toContain('onReject');
    expect(buildError(() => FlowBuilder.create('empty').build()).message).toContain('no nodes');
  });
});
