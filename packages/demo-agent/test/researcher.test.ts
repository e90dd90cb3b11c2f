import type { AgentStreamEvent } from '@lousho/build-ai-agent';
import { describe, expect, it } from 'vitest';
import { demoFindingsFor, type DemoSavedFindings } from '../src/index.js';
import { ALL_TOOLS, eventsOf, fastAgent, ofType, turn, user } from './helpers.js';

describe('the researcher sub-agent', () => {
  it('"Research X in depth" delegates to the researcher, which researches, waits for approval to save, and reports', async () => {
    const library: DemoSavedFindings[] = [];
    const agent = fastAgent({ library });
    const events = await eventsOf(agent.stream('Research solar power in depth'));

    const leadCalls = ofType(events, 'tool.call').filter((e) => e.subagent === undefined);
    expect(leadCalls.map((c) => [c.toolName, c.args])).toEqual([
      ['task', { subagent: 'researcher', prompt: 'Research solar power in depth, then save the findings.' }],
    ]);
    const taskId = leadCalls[0]!.toolCallId;
    const childCalls = ofType(events, 'tool.call').filter((e) => e.subagent !== undefined);
    expect(childCalls.map((c) => [c.toolName, c.subagent])).toEqual([
      ['research_topic', { name: 'researcher', depth: 1, toolCallId: taskId }],
      ['save_findings', { name: 'researcher', depth: 1, toolCallId: taskId }],
    ]);
    expect(ofType(events, 'tool.progress').every((e) => e.subagent?.name === 'researcher')).toBe(true);
    // The child's own words stream on the lead's stream, attributed to it.
    const childText = ofType(events, 'text.delta').filter((e) => e.subagent !== undefined).map((e) => e.delta).join('');
    expect(childText).toContain("I'll save them to the research library");

    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval' });
    const [pending] = await agent.approvals.list();
    expect(pending).toMatchObject({ toolName: 'save_findings', subagent: { name: 'researcher' }, args: { topic: 'solar power', findings: demoFindingsFor('solar power') } });
    expect(library).toEqual([]);

    const result = await agent.approvals.resolve({ id: pending!.approvalId, approved: true });
    expect(library).toHaveLength(1);
    expect(library[0]).toMatchObject({ topic: 'solar power', findings: demoFindingsFor('solar power') });
    expect(result.finishReason).toBe('stop');
    // The lead answers from the researcher's report: the findings and the saved entry.
    expect(result.text).toContain("The researcher has finished. Its report:");
    for (const finding of demoFindingsFor('solar power')) expect(result.text).toContain(finding);
    expect(result.text).toContain(library[0]!.id);
    expect(result.usage.delegated).toMatchObject({ runs: 1, modelCalls: 3 });
  });

  it('reports the findings without saving them when the save is rejected', async () => {
    const agent = fastAgent();
    const paused = await agent.send('Research tidal energy in depth');
    expect(paused.finishReason).toBe('awaiting-approval');
    const result = await agent.approvals.resolve({ id: paused.approvalId!, approved: false, note: 'not now' });
    expect(agent.library).toEqual([]);
    expect(result.finishReason).toBe('stop');
    for (const finding of demoFindingsFor('tidal energy')) expect(result.text).toContain(finding);
    expect(result.text).toContain('OK, I did not save the findings on tidal energy: you rejected it with the note "not now".');
  });

  it('keeps plain "Research X" on the lead\'s own research tool', async () => {
    const result = await fastAgent().send('Research the history of tea');
    expect(result.finishReason).toBe('stop');
    expect(result.toolCalls.map((c) => c.toolName)).toEqual(['research_topic']);
    expect(result.usage.delegated).toBeUndefined();
  });

  it('without a task tool, "in depth" is the model\'s own research on the topic (the words "in depth" left out)', async () => {
    const reply = await turn([user('Research solar power in depth')]);
    expect(reply.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['research_topic', { topic: 'solar power' }]]);
    const delegated = await turn([user('Research solar power in depth')], [...ALL_TOOLS, { name: 'task', description: 'task', parameters: { type: 'object' } }]);
    expect(delegated.toolCalls.map((c) => c.name)).toEqual(['task']);
  });

  it('stopping the lead during the researcher\'s work stops both: the run ends aborted, the task and the research cancelled', async () => {
    const agent = fastAgent({ toolDelayScale: 1 });
    const controller = new AbortController();
    const events: AgentStreamEvent[] = [];
    for await (const event of agent.stream('Research wind power in depth', { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'tool.progress' && event.subagent) controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'aborted' });
    const cancelled = ofType(events, 'tool.error').map((e) => [e.toolName, e.error.kind, e.subagent?.name]);
    expect(cancelled).toEqual(expect.arrayContaining([
      ['research_topic', 'cancelled', 'researcher'],
      ['task', 'cancelled', undefined],
    ]));
    expect(ofType(events, 'tool.call').map((e) => e.toolName)).not.toContain('save_findings');
    expect(agent.library).toEqual([]);
  });
});
