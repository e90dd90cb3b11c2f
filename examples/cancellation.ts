// lousho-api-overview.md › "Cancellation": stop a run with an AbortSignal, or give it a time limit.
// Run: npx tsx cancellation.ts (offline: the built-in mock provider, slowed down so a stop lands mid-reply).
import { createAgent, createMockProvider } from '@lousho/build-ai-agent';

const report = `Here is the long report you asked for. ${'It goes on and on. '.repeat(40)}`;
// 20 ms per word: the whole reply would take about three seconds.
const agent = createAgent({ prompt: 'You are helpful.', provider: createMockProvider({ responses: [report], delayMs: 20 }) });
const controller = new AbortController();
setTimeout(() => controller.abort(), 200); // e.g. from a Stop button
const result = await agent.send('Write a long report', { signal: controller.signal });
console.log(result.finishReason); // 'aborted' if it was cancelled, else 'stop'
console.log(`the reply was cut short: ${result.text.length < report.length}`);

// For a time limit, use AbortSignal.timeout(ms): a quick reply finishes well within it...
const quick = createAgent({ prompt: 'You are helpful.', provider: createMockProvider() });
const summary = await quick.send('Summarize this', { signal: AbortSignal.timeout(30_000) });
console.log(`within the limit: ${summary.finishReason}: ${summary.text}`);

// ...and a slow one is cut off when the limit passes. The run resolves, it does not reject.
const late = await agent.send('Write a long report', { signal: AbortSignal.timeout(100) });
console.log(`past the limit: ${late.finishReason}`);

// An already-aborted signal returns at once without calling the model.
const never = await agent.send('Write a long report', { signal: AbortSignal.abort() });
console.log(`already aborted: ${never.finishReason}, ${never.steps} model calls`);
