import type { ReactNode } from 'react';
import { humanize, safeHref, safeJson } from '@lousho/demo-agent';

const MAX_DEPTH = 4;
const MAX_ITEMS = 50;

/**
 * Shows any JSON value readably: objects as a key/value grid, lists as lists, strings as text.
 * Everything is a text node (no HTML from tool output), and only http(s) strings become links.
 */
export function Value({ value, depth = 0 }: { value: unknown; depth?: number }): ReactNode {
  if (value === null || value === undefined) return <span className="v-null">{String(value)}</span>;
  if (typeof value === 'string') {
    const href = safeHref(value);
    return href ? (
      <a className="v-link" href={href} target="_blank" rel="noopener noreferrer">
        {value}
      </a>
    ) : (
      <span className="v-str">{value}</span>
    );
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return <span className="v-lit">{String(value)}</span>;
  if (depth >= MAX_DEPTH) return <code className="v-json">{safeJson(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="v-null">none</span>;
    const shown = value.slice(0, MAX_ITEMS);
    return (
      <ul className="v-list">
        {shown.map((item, index) => (
          <li key={index}>
            <Value value={item} depth={depth + 1} />
          </li>
        ))}
        {value.length > shown.length ? <li className="v-null">…and {value.length - shown.length} more</li> : null}
      </ul>
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return <span className="v-null">empty</span>;
    return (
      <dl className="v-object">
        {entries.slice(0, MAX_ITEMS).map(([key, item]) => (
          <div className="v-row" key={key}>
            <dt>{humanize(key)}</dt>
            <dd>
              <Value value={item} depth={depth + 1} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <span className="v-str">{String(value)}</span>;
}
