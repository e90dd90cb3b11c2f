// The browser-test kit the demos share (React in apps/e2e/test, Vue in apps/vue-demo/e2e, SvelteKit
// in apps/sveltekit-demo/e2e): Chromium, a driver for the chat page, the servers' processes, the
// global setup, and the scenarios every demo passes.
export { CHROMIUM, launchBrowser, newContext, useBrowser, type Browser, type BrowserContext } from './chromium.js';
export { demoUrl, runServerUrl, type DemoMode, type DemoTarget } from './demo-target.js';
export {
  approvalPanel,
  chatAwaitingApproval,
  collectErrors,
  conversationOf,
  lastAssistantText,
  openDemo,
  screenshot,
  sendAndWaitForReply,
  sendMessage,
  toolCard,
  userMessages,
  waitForStatus,
  waitForTakeOver,
  type DemoPage,
  type OpenDemoOptions,
} from './page-driver.js';
export { describeViolations, seriousA11yViolations, type AxeViolation } from './accessibility.js';
export { failStarted, freePort, startProcess, type StartedProcess, type StartProcessOptions } from './child-process.js';
export { E2E_CALL_IDS, E2E_WEBHOOK_TOKEN, startDemoServer, type DemoServerOptions, type RunningDemoServer, type RunningServer } from './demo-server.js';
export { buildIfStale, type AppBuild } from './build-if-stale.js';
export { demoGlobalSetup, type DemoGlobalSetup } from './global-setup.js';
export { REPO_ROOT, inRepo } from './paths.js';
export * from './scenarios/index.js';
