import { describe, expect, it } from 'vitest';
import { DEMO_MODEL_NOTICE } from '@lousho/demo-agent';
import { chooseModel } from '../src/model.js';

describe('chooseModel', () => {
  it('uses the offline demo model when no model is configured', () => {
    const chosen = chooseModel({});
    expect(chosen.provider).toBeUndefined();
    expect(chosen.info.kind).toBe('demo');
    expect(chosen.info.notice).toBe(DEMO_MODEL_NOTICE);
    expect(chosen.warning).toBeUndefined();
  });

  it('falls back to the demo model, with a warning, when the configured model has no key', () => {
    const chosen = chooseModel({ LOUSHO_MODEL: 'openai/gpt-4o-mini' });
    expect(chosen.info.kind).toBe('demo');
    expect(chosen.warning).toContain('openai/gpt-4o-mini');
  });

  it('uses the configured real model when its key is set, and says so', () => {
    const chosen = chooseModel({ LOUSHO_MODEL: 'openai/gpt-4o-mini', OPENAI_API_KEY: 'sk-test' });
    expect(chosen.provider).toBeDefined();
    expect(chosen.info).toMatchObject({ kind: 'real', model: 'gpt-4o-mini' });
    expect(chosen.info.notice).toContain('gpt-4o-mini');
  });

  it('does not hide a typo in LOUSHO_MODEL behind the demo model', () => {
    expect(() => chooseModel({ LOUSHO_MODEL: 'no-such-provider/x' })).toThrow();
  });
});
