import { describe, expect, it } from 'vitest';
import { version } from 'react';
import { runConformanceSuite } from '@lousho/conformance';
import { reactDriver } from './support/react-driver.js';

it('runs on React 19', () => expect(version).toMatch(/^19\./));
runConformanceSuite('React 19', reactDriver({ strict: false }), { describe, it, expect });
runConformanceSuite('React 19 (StrictMode)', reactDriver({ strict: true }), { describe, it, expect });
