import { describeSharedScenarios } from 'e2e/kit';
import { sveltekitDemo } from './support/sveltekit-demo.js';

// Approval, question and error, reload, safety (here also in the server's HTML) and stop: the
// scenarios every demo passes (apps/e2e/kit/scenarios). The SvelteKit-only ones are beside this file.
describeSharedScenarios(sveltekitDemo);
