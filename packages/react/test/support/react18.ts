import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// React 18, for the test files that check the hook against it (they vi.mock 'react', 'react-dom',
// 'react-dom/client' and 'react-dom/server' with these). The devDependencies install it under
// aliases (`react-18`, `react-dom-18`), and pnpm links the aliased react-dom's peer `react` to
// React 19 (pnpm/pnpm#9599), so react-dom's CommonJS files are evaluated here with React 18 handed
// in for `react` and this copy of react-dom for `react-dom`.

const require = createRequire(import.meta.url);
export const React = require('react-18') as Record<string, unknown> & { version: string };

const overrides: Record<string, unknown> = { react: React };
const loaded = new Map<string, unknown>();

function load(file: string): unknown {
  if (loaded.has(file)) return loaded.get(file);
  const nodeRequire = createRequire(file);
  const localRequire = (id: string): unknown => {
    if (id in overrides) return overrides[id];
    return id.startsWith('.') ? load(nodeRequire.resolve(id)) : nodeRequire(id);
  };
  const module = { exports: {} as unknown };
  const run = new Function('exports', 'require', 'module', '__filename', '__dirname', readFileSync(file, 'utf8')) as (...args: unknown[]) => void;
  run(module.exports, localRequire, module, file, dirname(file));
  loaded.set(file, module.exports);
  return module.exports;
}

const root = dirname(require.resolve('react-dom-18/package.json'));
export const ReactDOM = load(join(root, 'index.js')) as Record<string, unknown>;
overrides['react-dom'] = ReactDOM;
export const ReactDOMClient = load(join(root, 'client.js')) as Record<string, unknown>;
export const ReactDOMServer = load(join(root, 'server.node.js')) as Record<string, unknown>;

/** A module object for vi.mock: named exports plus `default`. */
export const asModule = (exports: Record<string, unknown>): Record<string, unknown> => ({ ...exports, default: exports });
