import { describe, expect, it } from 'vitest';
import { specToAgent, type AgentSpec } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { specToAgent as coreSpecToAgent } from '@lousho/core';

const spec: AgentSpec = {
  name: 'weather',
  instructions: 'Answer with the city and its temperature.',
  output: { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'], additionalProperties: false },
};

describe('specToAgent from @lousho/build-ai-agent', () => {
  it('enforces the spec’s output JSON Schema: an invalid reply gets the repair step, then result.object', async () => {
    const provider = mockModel(['{"city":"Oslo"}', '{"city":"Oslo","celsius":4}']);
    const result = await specToAgent(spec, { provider }).send('Weather in Oslo?');
    expect(result.object).toEqual({ city: 'Oslo', celsius: 4 });
    expect(provider.calls).toHaveLength(2);
    expect(String(provider.calls[1]!.messages.at(-1)!.content)).toContain('did not match the required JSON schema');
    // The model is shown the schema as written.
    expect(provider.calls[0]!.responseFormat).toEqual({ type: 'json', schema: spec.output });
  });

  it('ends output-invalid when the repair is invalid too', async () => {
    const result = await specToAgent(spec, { provider: mockModel(['{"city":1}', '{"celsius":"warm"}']) }).send('?');
    expect(result.finishReason).toBe('output-invalid');
  });

  it("core's own specToAgent says what it lacks", () => {
    expect(() => coreSpecToAgent(spec, { provider: mockModel(['{}']) })).toThrow(expect.objectContaining({ code: 'LOUSHO_UNSUPPORTED_OPTION' }));
  });

  it('gives a spec the built-in tools it names (from @lousho/tools), and they run', async () => {
    const provider = mockModel([{ toolCalls: [{ name: 'todo_write', args: { todos: [{ content: 'Check the weather', status: 'in_progress' }] } }] }, 'Noted.']);
    const agent = specToAgent({ name: 'helper', tools: ['http', 'current-date', 'day-name', 'todo'] }, { provider });
    const result = await agent.send('Plan it');
    expect(provider.calls[0]!.tools!.map((t) => t.name).sort()).toEqual(['current_date', 'day_name', 'http', 'todo_read', 'todo_write']);
    const toolMessage = result.messages.find((m) => m.role === 'tool')!;
    expect(JSON.stringify(toolMessage.content)).toContain('Check the weather');
    expect(() => coreSpecToAgent({ name: 'helper', tools: ['current-date'] }, { provider })).toThrow(expect.objectContaining({ code: 'LOUSHO_UNSUPPORTED_OPTION', field: 'tools[0]' }));
  });
});
