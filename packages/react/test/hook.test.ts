import { expect, it } from 'vitest';
import { version } from 'react';
import { hookTests } from './hook-tests.js';

it('runs on React 19', () => expect(version).toMatch(/^19\./));
hookTests('React 19');
