import { describe, expect, it } from 'vitest';
import { clientDriver, runConformanceSuite } from '../src/index.js';

// The suite against the framework-neutral client itself: what every binding must match.
runConformanceSuite('core client', clientDriver, { describe, it, expect });
