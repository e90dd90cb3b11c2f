import { describeSharedScenarios } from '../kit/index.js';
import { reactDemo } from './react-demo.js';

// Approval, question and error, reload, safety and stop: the scenarios every demo passes (apps/e2e/kit/scenarios).
describeSharedScenarios(reactDemo);
