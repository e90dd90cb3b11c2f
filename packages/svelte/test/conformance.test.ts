import { describe, expect, it } from 'vitest';
import { VERSION } from 'svelte/compiler';
import { runConformanceSuite } from '@lousho/conformance';
import { svelteDriver } from './support/svelte-driver.js';

it('runs on Svelte 5', () => expect(VERSION).toMatch(/^5\./));
runConformanceSuite('Svelte 5 (runes)', svelteDriver({ legacy: false }), { describe, it, expect });
runConformanceSuite('Svelte 5 (Svelte 4 syntax)', svelteDriver({ legacy: true }), { describe, it, expect });
