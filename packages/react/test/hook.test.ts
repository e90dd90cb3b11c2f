import { expect, it } from 'vitest';
import { version } from 'react';
import { version as domVersion } from 'react-dom';
import { hookTests } from './hook-tests.js';

it('runs on React 19', () => {
  expect(version).toMatch(/^19\./);
  expect(domVersion).toMatch(/^19\./);
});
hookTests('React 19');
