import { describe, expect, test } from 'vitest';
import { isResultWithArtifacts, splitArtifacts, withArtifacts } from '../../src/tools/index.js';

describe('artifacts', () => {
  const chart = { type: 'chart', data: { points: [1, 2, 3] }, mimeType: 'application/json', title: 'Sales' };

  test('split gives the model its value and the UI the artifacts', () => {
    const result = withArtifacts({ total: 6 }, [chart]);
    expect(splitArtifacts(result)).toEqual({ value: { total: 6 }, artifacts: [chart] });
  });

  test('a single artifact may be passed without an array', () => {
    expect(splitArtifacts(withArtifacts('done', chart))).toEqual({ value: 'done', artifacts: [chart] });
  });

  test('a plain result has no artifacts key', () => {
    expect(splitArtifacts({ total: 6 })).toEqual({ value: { total: 6 } });
    expect('artifacts' in splitArtifacts('text')).toBe(false);
    expect(splitArtifacts(undefined)).toEqual({ value: undefined });
    expect(splitArtifacts(null)).toEqual({ value: null });
  });

  test('an empty artifact list is the same as none', () => {
    expect(splitArtifacts(withArtifacts(1, []))).toEqual({ value: 1 });
  });

  test('the artifacts never appear in what the model gets', () => {
    const { value } = splitArtifacts(withArtifacts({ answer: 42 }, [{ type: 'secret-preview', data: 'ui only' }]));
    expect(JSON.stringify(value)).toBe('{"answer":42}');
  });

  test('a wrapped result survives a JSON round trip (checkpoints, the wire)', () => {
    const copy: unknown = JSON.parse(JSON.stringify(withArtifacts({ a: 1 }, [chart])));
    expect(isResultWithArtifacts(copy)).toBe(true);
    expect(splitArtifacts(copy)).toEqual({ value: { a: 1 }, artifacts: [chart] });
  });

  test('look-alike objects are not unwrapped', () => {
    expect(isResultWithArtifacts({ value: 1, artifacts: [] })).toBe(false);
    expect(isResultWithArtifacts({ __loushoArtifacts: true, value: 1, artifacts: 'x' })).toBe(false);
    expect(splitArtifacts({ __loushoArtifacts: 'yes', value: 1, artifacts: [] } as unknown)).toEqual({ value: { __loushoArtifacts: 'yes', value: 1, artifacts: [] } });
  });

  test('splitting copies the list, so changing it does not change the result', () => {
    const result = withArtifacts(1, [chart]);
    splitArtifacts(result).artifacts!.push({ type: 'x', data: null });
    expect(result.artifacts).toHaveLength(1);
  });
});
