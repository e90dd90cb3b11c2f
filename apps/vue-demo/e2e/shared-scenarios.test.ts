import { describeSharedScenarios } from 'e2e/kit';
import { vueDemo } from './vue-demo.js';

// Approval, question and error, reload, safety and stop: the scenarios every demo passes (apps/e2e/kit/scenarios).
describeSharedScenarios(vueDemo);
