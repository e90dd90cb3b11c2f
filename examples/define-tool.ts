// lousho-tools.md › "Tools": defineTool() with argument and result types inferred from zod.
// Run: npx tsx define-tool.ts (offline: a scripted model calls the tool, then answers).
import { defineTool, createAgent, type ToolInput, type ToolOutput } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const weather = defineTool({
  name: 'weather', // 1-64 chars: letters, digits, _ and -
  description: 'Get weather information',
  input: z.object({ location: z.string(), units: z.enum(['celsius', 'fahrenheit']) }),
  execute: async ({ location: _location, units: _units }) => ({ temperature: 72, conditions: 'sunny' }),
});

type WeatherArgs = ToolInput<typeof weather>; // { location: string; units: 'celsius' | 'fahrenheit' }
type WeatherResult = ToolOutput<typeof weather>; // { temperature: number; conditions: string }

// What the snippet leaves to you: a provider. This one calls the tool once, then answers.
const provider = mockModel([{ toolCalls: [{ name: 'weather', args: { location: 'Paris', units: 'fahrenheit' } satisfies WeatherArgs }] }, 'It is 72 °F and sunny in Paris.']);

const agent = createAgent({ prompt: '...', provider, tools: [weather] });

const result = await agent.send('Weather in Paris?');
const call = result.toolCalls[0]!;
const forecast = call.result as WeatherResult;
console.log(`${call.toolName}(${JSON.stringify(call.args)}) -> ${forecast.temperature} ${forecast.conditions}`);
console.log(`reply: ${result.text}`);
// What the model is told about the tool: the JSON Schema of `input`.
console.log(`schema sent: ${JSON.stringify(provider.calls[0]!.tools?.[0]?.parameters)}`);
