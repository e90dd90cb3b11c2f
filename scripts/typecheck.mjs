// `pnpm typecheck`, and the first step of `npm test`: every workspace package's type check, type
// tests included; most packages in one TypeScript program (why: scripts/lib/typecheck.mjs).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typecheckWorkspace } from './lib/typecheck.mjs';

process.exitCode = await typecheckWorkspace({ root: resolve(dirname(fileURLToPath(import.meta.url)), '..') });
