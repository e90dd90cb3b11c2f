import { resolvePlaceholder, textOf, type ExpressionVariables } from './bind.js';
import { ExpressionError } from './errors.js';
import { readPlaceholder } from './tokenizer.js';

/**
 * A text with `{{name.path}}` placeholders filled from `variables`: each is replaced by its
 * value's text (missing and `null` values by nothing). Values are never scanned for placeholders
 * in turn. Text that only looks like a placeholder (`{{ not valid }}`) stays as it is.
 */
export function renderTemplate(template: string, variables: ExpressionVariables): string {
  let out = '';
  let i = 0;
  for (;;) {
    const at = template.indexOf('{{', i);
    if (at === -1) return out + template.slice(i);
    const placeholder = readPlaceholder(template, at);
    if (!placeholder) {
      out += template.slice(i, at + 2);
      i = at + 2;
      continue;
    }
    out += template.slice(i, at) + textOf(resolvePlaceholder(template, variables, placeholder));
    i = placeholder.end;
  }
}

/**
 * The value of a template that is one placeholder and nothing else (`'{{order.id}}'`), so a tool
 * argument keeps its type; otherwise the rendered text.
 */
export function renderValue(template: string, variables: ExpressionVariables): unknown {
  const trimmed = template.trim();
  if (trimmed.startsWith('{{')) {
    const placeholder = readPlaceholder(trimmed, 0);
    if (placeholder && placeholder.end === trimmed.length) return resolvePlaceholder(trimmed, variables, placeholder);
  }
  return renderTemplate(template, variables);
}

export { ExpressionError };
