import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec, specToAgent, type AgentStreamEvent } from '@lousho/build-ai-agent';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoModel, createResearchTool, createSaveFindingsTool, createWeatherTool, demoFindingsFor, type DemoSavedFindings } from '../src/index.js';
import { eventsOf, ofType } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'lousho-spec-subagents-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a spec with sub-agents, end to end on the offline demo model', () => {
  it('builds a delegating lead from a spec file whose researcher is another file; its approval pauses the run and resolving it finishes both', async () => {
    writeFileSync(
      join(dir, 'researcher.yaml'),
      [
        'name: researcher',
        'description: Researches a topic in depth and saves the findings.',
        'instructions: Look the topic up, save the findings, then report them.',
        'tools: [research_topic, save_findings]',
        'limits:',
        '  maxToolCalls: 5',
      ].join('\n'),
    );
    const leadFile = join(dir, 'lead.yaml');
    writeFileSync(leadFile, ['name: lead', 'description: The demo lead', 'instructions: Delegate research in depth to the researcher.', 'tools: [get_weather]', 'subagents:', '  - ./researcher.yaml'].join('\n'));

    const spec = await loadSpec(leadFile);
    expect(spec.subagents).toEqual([expect.objectContaining({ name: 'researcher', tools: ['research_topic', 'save_findings'] })]);
    const library: DemoSavedFindings[] = [];
    const provider = createDemoModel({ charDelayMs: 0 });
    const agent = specToAgent(spec, {
      provider,
      tools: [createWeatherTool({ delayScale: 0 }), createResearchTool({ delayScale: 0 }), createSaveFindingsTool({ delayScale: 0, library })],
    });

    const first = await eventsOf(agent.stream('Research solar power in depth', { sessionId: 'spec' }));
    const done = ofType(first, 'run.done')[0]!;
    expect(done.finishReason).toBe('awaiting-approval');
    // The lead only delegated; the researcher looked the topic up and asked to save.
    expect(ofType(first, 'tool.call').map((e) => [e.toolName, e.subagent?.name])).toEqual([
      ['task', undefined],
      ['research_topic', 'researcher'],
      ['save_findings', 'researcher'],
    ]);
    const requested = ofType(first, 'approval.requested')[0]!;
    expect(requested.approval).toMatchObject({ toolName: 'save_findings', subagent: { name: 'researcher', depth: 1 } });
    expect(library).toEqual([]);

    const rest: AgentStreamEvent[] = await eventsOf(await agent.approvals.resolveStream({ id: requested.approval.approvalId, approved: true }));
    const end = ofType(rest, 'run.done')[0]!;
    expect(end.finishReason).toBe('stop');
    expect(library).toHaveLength(1);
    // The lead answers from the researcher's report, which came back as the task's result.
    expect(end.text).toContain('The researcher has finished. Its report:');
    expect(end.text).toContain(demoFindingsFor('solar power')[0]!);
    expect(end.usage.delegated).toMatchObject({ runs: 1, modelCalls: 3 });
  });
});
