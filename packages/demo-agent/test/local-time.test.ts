import { describe, expect, it } from 'vitest';
import { createDemoAgent, createDemoModel, demoBrowserTools } from '../src/index.js';

describe('local_time, the demo browser tool', () => {
  it('the demo model calls it for "what is my time zone?"; the run waits for the page, then answers from what the browser said', async () => {
    const agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }), toolDelayScale: 0 });
    const paused = await agent.send('What is my time zone?');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.pendingApproval).toMatchObject({ kind: 'client', toolName: 'local_time', displayName: 'Your local time' });
    const done = await agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'Asia/Tokyo', localTime: '09:30' } });
    expect(done.text).toContain('Your browser says your time zone is Asia/Tokyo, and it is 09:30 there.');
  });

  it('a result that is not a time zone is refused by the schema and the call still waits', async () => {
    const agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }), toolDelayScale: 0 });
    const paused = await agent.send('What time is it?');
    await expect(agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: '' } })).rejects.toMatchObject({ code: 'LOUSHO_INVALID_TOOL_OUTPUT' });
    expect(await agent.approvals.list()).toHaveLength(1);
  });

  it("the demos' handler reads the page's time zone and clock", () => {
    const result = demoBrowserTools.local_time();
    expect(result.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(result.localTime).toMatch(/\d/);
  });
});
