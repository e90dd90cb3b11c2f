// lousho-api-overview.md › "Cron schedules": run the agent on a cron schedule or a fixed interval.
// Run: npx tsx cron-schedules.ts (offline: the built-in mock provider; the schedule is stopped at the end).
import { createAgent, createMockProvider } from '@lousho/build-ai-agent';
import { CronExpressionError, CronTriggerAdapter, parseCronExpression } from '@lousho/build-ai-agent/triggers';

const agent = createAgent({ prompt: 'You are helpful.', provider: createMockProvider() });

const queue = new CronTriggerAdapter({
  cron: '*/15 9-17 * * MON-FRI', // minute hour day-of-month month day-of-week
  timezone: 'Europe/Paris', // IANA name; defaults to the machine's local zone
  input: 'Check the support queue',
  onResult: (result, error) => console.log(error ?? result?.text),
});
await queue.listen(agent, (input) => agent.send(input));
console.log(`armed: next run in the future: ${queue.nextRunAt!.getTime() > Date.now()}`);
await queue.stop();

// The next fire times after Friday 2026-03-27 17:40 in Paris: the last quarter hour, then Monday.
// (Sunday 2026-03-29 is a daylight-saving change in Paris; the schedule stays on local time.)
const schedule = parseCronExpression('*/15 9-17 * * MON-FRI', 'Europe/Paris');
let after = new Date('2026-03-27T16:40:00Z');
const paris = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', weekday: 'short', day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit' });
for (let i = 0; i < 3; i++) {
  after = schedule.nextRun(after);
  console.log(`next: ${paris.format(after)} Paris (${after.toISOString()})`);
}

// A fixed period instead: every 50 ms, stopped after the first result.
let ticker!: CronTriggerAdapter;
const firstRun = new Promise<string | undefined>((resolve) => {
  ticker = new CronTriggerAdapter({ intervalMs: 50, input: 'Tick', onResult: (result) => resolve(result?.text) });
});
await ticker.listen(agent, (input) => agent.send(input));
console.log(`interval run: ${await firstRun}`);
await ticker.stop();

// A bad expression names the field and shows a valid example.
try {
  parseCronExpression('*/15 25 * * *');
} catch (error) {
  if (error instanceof CronExpressionError) console.log(`invalid: ${error.message}`);
}
