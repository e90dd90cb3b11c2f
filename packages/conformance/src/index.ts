// `@lousho/conformance` (private): the one scenario suite every UI binding must pass.
export { runConformanceSuite, toolParts, lastText, type ConformanceSuiteOptions, type TransportName } from './suite.js';
export type { BindingDriver, BindingOptions, BindingState, ConformanceSource, MountedBinding, MountedThreads, SuiteApi, ExpectLike } from './driver.js';
export { runThreadsConformance } from './threads-suite.js';
export { clientDriver } from './client-driver.js';
export { eventually, settle } from './eventually.js';
export { gate, scriptedModel, scriptedAgent, emailTool, slowTool, waitTool, lookupTool, pageTool, shellTool, researcher, triageFlow, lookupFlow, type Gate, type ScriptItem, type ScriptedModel } from './fixtures.js';
export { serveAgent, type AgentServer, type LoggedRequest } from './server.js';
export { sessionPlans, plannedAgent, plannedModel, plannedTools, playSession, plannedCards, plannedQuery, cardsByTurn, STOP_MARKER, type SessionPlan, type PlannedTurn, type PlannedStep, type PlannedCall, type PlannedDecision } from './random-sessions.js';
