import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentSpecSchema, defineTool, loadSpec, parseAgentSpec, specToAgent, type AgentSpec, type SpecBuiltinTools } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

let dir: string;
const write = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lousho-spec-'));
  await mkdir(join(dir, 'skills', 'refunds'), { recursive: true });
  await writeFile(join(dir, 'skills', 'refunds', 'SKILL.md'), '---\nname: refunds\ndescription: How refunds work\n---\nRefunds take 5 days.\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const lookupOrder = defineTool({ name: 'lookup_order', description: 'Look up an order', input: z.object({ orderId: z.string() }), execute: async ({ orderId }) => ({ orderId, status: 'shipped' }) });

// The built-in tools are in @lousho/tools (build-ai-agent's specToAgent passes them; its tests run the
// real ones): here each built-in name stands for tools of the names the agent would use.
const builtinTool = (name: string) => defineTool({ name, description: `The built-in ${name}`, input: z.object({}), execute: async () => name });
const builtinTools: SpecBuiltinTools = (name) =>
  name === 'todo' ? { todo_write: builtinTool('todo_write'), todo_read: builtinTool('todo_read') } : { [name.replace('-', '_')]: builtinTool(name.replace('-', '_')) };

const SUPPORT_YAML = `name: support
description: Answers questions about orders
instructions: You are the support agent of Acme.
model: gpt-4o-mini
tools: [lookup_order, current-date, todo]
maxSteps: 4
toolConcurrency: 2
askQuestion: true
skills: ./skills
memory:
  - name: customer
    scope: session
limits:
  maxToolCalls: 5
`;

describe('loadSpec', () => {
  it('reads a YAML spec; specToAgent() builds an agent that runs with the named tools, skills and memory', async () => {
    const spec = await loadSpec(await write('support.yaml', SUPPORT_YAML));
    expect(spec).toMatchObject({ name: 'support', model: 'gpt-4o-mini', tools: ['lookup_order', 'current-date', 'todo'], maxSteps: 4, skills: join(dir, 'skills') });
    const provider = mockModel([{ toolCalls: [{ name: 'lookup_order', args: { orderId: 'A1' } }] }, 'Order A1 has shipped.']);
    const agent = specToAgent(spec, { provider, tools: [lookupOrder], builtinTools });
    expect(agent.name).toBe('support');
    const result = await agent.send('Where is order A1?');
    expect(result.text).toBe('Order A1 has shipped.');
    expect(result.messages.find((m) => m.role === 'tool')!.content).toContain('shipped');
    const request = provider.calls[0]!;
    expect(request.model).toBe('gpt-4o-mini');
    expect(request.system).toContain('You are the support agent of Acme.');
    expect(request.system).toContain('refunds: How refunds work');
    expect(request.tools!.map((t) => t.name).sort()).toEqual(
      ['ask_question', 'current_date', 'load_skill', 'lookup_order', 'recall_customer', 'remember_customer', 'todo_read', 'todo_write'].sort(),
    );
  });

  it('reads JSON too, and the limits of a spec end a run', async () => {
    const path = await write('counter.json', JSON.stringify({ name: 'counter', tools: ['lookup_order'], limits: { maxToolCalls: 1 } }, null, 2));
    const provider = mockModel([{ toolCalls: [{ name: 'lookup_order', args: { orderId: 'A' } }, { name: 'lookup_order', args: { orderId: 'B' } }] }]);
    const result = await specToAgent(await loadSpec(path), { provider, tools: { lookup_order: lookupOrder } }).send('go');
    expect(result.finishReason).toBe('budget-exceeded');
  });

  it('errors name the file, the line and the field', async () => {
    const typo = await write('typo.yaml', 'name: support\ninstructions: Hi\nmaxStep: 3\n');
    await expect(loadSpec(typo)).rejects.toMatchObject({ code: 'LOUSHO_UNKNOWN_OPTION', line: 3, field: 'maxStep', message: `${typo}:3: \`maxStep\` is not a field of a spec: did you mean \`maxSteps\`?` });

    const nested = await write('nested.yaml', 'name: support\nlimits:\n  maxTokens: 100\n  maxCostUds: 2\n');
    await expect(loadSpec(nested)).rejects.toMatchObject({ code: 'LOUSHO_UNKNOWN_OPTION', line: 4, field: 'limits.maxCostUds', message: expect.stringContaining('did you mean `maxCostUsd`?') });

    const badValue = await write('bad.yaml', 'name: support\nmemory:\n  - name: notes\n    scope: forever\n');
    await expect(loadSpec(badValue)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SPEC', line: 4, field: 'memory[0].scope', message: expect.stringContaining(`${badValue}:4: \`memory[0].scope\` is invalid`) });

    const missing = await write('missing.yaml', 'description: no name\n');
    await expect(loadSpec(missing)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SPEC', field: 'name', message: expect.stringContaining('`name` is required') });

    const broken = await write('broken.yaml', 'name: support\ntools: [a, b\n');
    await expect(loadSpec(broken)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SPEC', message: expect.stringContaining('is not valid YAML or JSON') });

    await expect(loadSpec(await write('agent.txt', 'name: x'))).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SPEC', message: expect.stringContaining('.yaml, .yml or .json') });
    await expect(loadSpec(join(dir, 'nope.yaml'))).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SPEC', message: expect.stringContaining('cannot be read (ENOENT)') });
  });

  it('sub-agents: nested specs and files (relative to the spec) are read and checked, and the lead delegates to them', async () => {
    await write('writer.yaml', 'name: writer\ndescription: Writes\ninstructions: Write well.\n');
    const lead = await loadSpec(await write('lead.yaml', 'name: lead\nsubagents:\n  - ./writer.yaml\n  - name: researcher\n    description: Researches\n'));
    expect(lead.subagents).toEqual([
      { name: 'writer', description: 'Writes', instructions: 'Write well.' },
      { name: 'researcher', description: 'Researches' },
    ]);
    // The lead delegates to the sub-agents the spec names (each an agent of its own).
    // One provider for all (the spec names no models): the lead asks, the writer answers, the lead replies.
    const model = mockModel([{ toolCalls: [{ name: 'task', id: 't1', args: { subagent: 'writer', prompt: 'Write a haiku' } }] }, 'An old silent pond.', 'The writer wrote it.']);
    const result = await specToAgent(lead, { provider: model }).send('Get me a haiku');
    expect(result.text).toBe('The writer wrote it.');
    expect(result.usage.delegated?.runs).toBe(1);

    const badChild = await write('bad-child.yaml', 'name: lead\nsubagents:\n  - name: researcher\n    instructons: Research.\n');
    await expect(loadSpec(badChild)).rejects.toMatchObject({ line: 4, field: 'subagents[0].instructons', message: expect.stringContaining('did you mean `instructions`?') });
    // A sub-agent without a description cannot be chosen: refused when the agent is built.
    expect(() => specToAgent({ name: 'lead', subagents: [{ name: 'mute' }] }, { provider: model })).toThrow(expect.objectContaining({ message: expect.stringContaining("Sub-agent 'mute' has no description") }));
    const loop = await write('loop.yaml', 'name: loop\nsubagents: [./loop.yaml]\n');
    await expect(loadSpec(loop)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SPEC', message: expect.stringContaining('names itself as a sub-agent') });
  });
});

describe('specToAgent', () => {
  it('checks a spec object too (agentSpecSchema), and the tools it names', () => {
    expect(agentSpecSchema.safeParse({ name: 'x', tools: ['http'] }).success).toBe(true);
    expect(agentSpecSchema.safeParse({ name: 'x', toolz: [] }).success).toBe(false);
    const provider = mockModel(['x']);
    expect(() => specToAgent({ name: 'x', tools: ['lookup_ordr'] }, { provider, tools: [lookupOrder] })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_INVALID_SPEC', field: 'tools[0]', message: expect.stringContaining("did you mean 'lookup_order'?") }),
    );
    // Built-in names need the built-in tools (@lousho/tools), which core's own specToAgent does not bundle.
    expect(() => specToAgent({ name: 'x', tools: ['lookup_order', 'http'] }, { provider, tools: [lookupOrder] })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_UNSUPPORTED_OPTION', field: 'tools[1]', message: expect.stringContaining("names the built-in tool 'http'") }),
    );
    expect(() => specToAgent({ name: 'x', maxSteps: 0 }, { provider })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_SPEC', field: 'maxSteps' }));
    expect(() => specToAgent({ name: 'x' } as AgentSpec)).toThrow(expect.objectContaining({ field: 'model', message: expect.stringContaining('is required when specToAgent() is given no provider') }));
    expect(() => specToAgent({ name: 'x' }, { provider, tool: [] } as never)).toThrow(expect.objectContaining({ code: 'LOUSHO_UNKNOWN_OPTION', message: expect.stringContaining('did you mean `tools`?') }));
  });

  it("core's specToAgent refuses `output` without a validator; given one, the reply is checked against the JSON Schema", async () => {
    const spec: AgentSpec = { name: 'x', output: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
    expect(() => specToAgent(spec, { provider: mockModel(['{}']) })).toThrow(expect.objectContaining({ code: 'LOUSHO_UNSUPPORTED_OPTION', field: 'output' }));
    const provider = mockModel(['{"town":"Oslo"}', '{"city":"Oslo"}']);
    const outputValidator = () => (value: unknown) =>
      typeof value === 'object' && value !== null && typeof (value as { city?: unknown }).city === 'string' ? { value } : { issues: [{ message: 'city is required', path: ['city'] }] };
    const result = await specToAgent(spec, { provider, outputValidator }).send('Where?');
    expect(result.object).toEqual({ city: 'Oslo' });
    expect(provider.calls[0]!.responseFormat).toEqual({ type: 'json', schema: spec.output });
  });

  it('parseAgentSpec() reads spec text without a file (browsers, workers)', () => {
    expect(parseAgentSpec('name: inline\nmodel: openai/gpt-4o-mini\n')).toEqual({ name: 'inline', model: 'openai/gpt-4o-mini' });
    expect(() => parseAgentSpec('name: inline\nmdel: x\n')).toThrow(expect.objectContaining({ line: 2, message: '2: `mdel` is not a field of a spec: did you mean `model`?' }));
  });
});
