// lousho-api-overview.md › "Parallel tool calls": toolConcurrency caps the calls of a turn in flight.
// Run: npx tsx parallel-tool-calls.ts (offline: the built-in mock provider asks for six cities at once).
import { createAgent, createMockProvider, defineTool } from '@lousho/build-ai-agent';
import { z } from 'zod';

const cities = ['Oslo', 'Paris', 'Rome', 'Lima', 'Cairo', 'Quito'];
let inFlight = 0;
let mostInFlight = 0;
const finished: string[] = [];

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    // Later cities answer sooner, so completion order differs from call order.
    await new Promise((resolve) => setTimeout(resolve, 100 * (cities.length - cities.indexOf(city))));
    inFlight--;
    finished.push(city);
    return { city, tempC: 21 };
  },
});

const agent = createAgent({
  prompt: 'You are a travel assistant.',
  provider: createMockProvider({ responses: [{ toolCalls: cities.map((city) => ({ name: 'get_weather', args: { city } })) }, 'All six are at 21 °C.'] }),
  tools: [getWeather],
  toolConcurrency: 4, // at most 4 tool calls of a turn in flight
});

const result = await agent.send('Weather in six cities?');
console.log(`most in flight at once: ${mostInFlight}`);
console.log(`finished first: ${finished[0]}`);
// Transcript order is call order, whatever order the calls finished in.
const transcript = result.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(String(m.content)).city);
console.log(`transcript order: ${transcript.join(', ')}`);
console.log(`reply: ${result.text}`);
