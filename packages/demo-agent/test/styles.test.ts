import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The demos' shared stylesheets are plain CSS: every rule at the top level (or inside an at-rule).
 * An unclosed rule makes the browser nest every later rule inside it, so they silently stop
 * applying (a bad merge once left the sub-agent card and the triage outcome unstyled).
 */
function nestedRules(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const stack: ('at' | 'rule')[] = [];
  const problems: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') {
      const prelude = text.slice(start, i).trim();
      if (stack.includes('rule')) problems.push(prelude);
      stack.push(prelude.startsWith('@') ? 'at' : 'rule');
      start = i + 1;
    } else if (ch === '}') {
      stack.pop();
      start = i + 1;
    } else if (ch === ';') {
      start = i + 1;
    }
  }
  if (stack.length > 0) problems.push(`${stack.length} block(s) never closed`);
  return problems;
}

describe('the shared stylesheets', () => {
  for (const file of ['styles.css', 'sessions-panel.css', 'thread-sidebar.css']) {
    it(`${file}: every rule is closed, none nested in another`, () => {
      expect(nestedRules(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'))).toEqual([]);
    });
  }

  it('the check finds an unclosed rule', () => {
    expect(nestedRules('.a {\n  color: red;\n\n.b {\n  color: blue;\n}\n')).toEqual(['.b', '1 block(s) never closed']);
    expect(nestedRules('@media (max-width: 600px) {\n  .a { color: red; }\n}\n.b { color: blue; }')).toEqual([]);
  });
});
