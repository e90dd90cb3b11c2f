import * as childProcess from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect, test } from 'vitest';
import { nodeProcess, type NodeChildProcessModule, type NodeFs, type NodePath, type NodeProcess } from '../../src/runtime/node-types.js';

// The workspace's own view of Node's modules (so the root entry type-checks without @types/node)
// must be one Node's real modules satisfy: these assignments are checked by the type checker.
test("Node's modules satisfy the workspace's types for them", () => {
  const modules: [NodeFs, NodePath, NodeChildProcessModule, NodeProcess] = [fs, path, childProcess, process];
  expect(modules.every(Boolean)).toBe(true);
  expect(nodeProcess()).toBe(process);
});
