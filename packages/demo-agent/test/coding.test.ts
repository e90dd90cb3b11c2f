import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_FILES, demoSuggestions } from '../src/index.js';
import { eventsOf, fastAgent, ofType } from './helpers.js';

const textOf = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('the demo agent on its coding project', () => {
  it('reads a file, runs the failing test, fixes the typo and runs the test again', async () => {
    const agent = fastAgent();
    const read = await agent.send('Read greet.js');
    expect(read.toolCalls.map((c) => [c.toolName, c.args])).toEqual([['read_file', { path: 'src/greet.js' }]]);
    expect(read.text).toContain('1\texport function greet(name) {');

    const failing = await agent.send('Run the tests');
    expect(failing.toolCalls[0]).toMatchObject({ toolName: 'shell', args: { command: 'npm test' }, result: { exitCode: 1 } });
    expect(failing.text).toContain("'Helo, Ada!' !== 'Hello, Ada!'");

    const fixed = await agent.send('Fix the typo');
    expect(fixed.toolCalls[0]).toMatchObject({ toolName: 'edit_file', result: { path: 'src/greet.js', replacements: 1, line: 2 } });
    expect(textOf(await agent.workspace.readFile('src/greet.js'))).toBe(DEMO_PROJECT_FILES['src/greet.js']!.replace('Helo,', 'Hello,'));

    const passing = await agent.send('Run the tests again');
    expect(passing.toolCalls[0]).toMatchObject({ result: { exitCode: 0, stdout: expect.stringContaining('1 test passed') } });
    expect(passing.text).toMatch(/^It passed/);
    expect(agent.workspace.commands.map((c) => c.command)).toEqual(['npm test', 'npm test']);
  });

  it('the command guardrail ends the run on "delete everything": nothing runs, the run says which guardrail and why', async () => {
    const agent = fastAgent();
    const prompt = demoSuggestions.find((s) => s.label.includes('guardrail'))!.prompt;
    const events = await eventsOf(agent.stream(prompt));
    const done = ofType(events, 'run.done')[0]!;
    expect(done).toMatchObject({ finishReason: 'guardrail', guardrail: { name: 'command', stage: 'tool', reason: expect.stringContaining("matches the rule 'rm -rf /'") } });
    expect(ofType(events, 'tool.error')[0]?.error).toMatchObject({ kind: 'denied' });
    // The model was called once: the run ended on the block, with no turn after it.
    expect(ofType(events, 'step.start')).toHaveLength(1);
    expect(agent.workspace.commands).toEqual([]);
    // The session goes on.
    expect((await agent.send('Run the tests')).finishReason).toBe('stop');
  });

  it('each agent has a project of its own', async () => {
    const a = fastAgent();
    const b = fastAgent();
    await a.send('Fix the typo');
    expect(textOf(await b.workspace.readFile('src/greet.js'))).toBe(DEMO_PROJECT_FILES['src/greet.js']);
  });
});
