import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/vue';
import { version } from 'vue';
import { runConformanceSuite } from '@lousho/conformance';
import { vueDriver } from './support/vue-driver.js';

afterEach(() => cleanup());

it('runs on Vue 3', () => expect(version).toMatch(/^3\./));
runConformanceSuite('Vue', vueDriver, { describe, it, expect });
