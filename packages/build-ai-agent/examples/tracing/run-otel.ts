// Agent runs as OpenTelemetry spans, printed by the SDK's console exporter. Runs offline (a scripted
// model): `npx tsx examples/tracing/run-otel.ts`. Needs `@opentelemetry/api` and
// `@opentelemetry/sdk-trace-base` (swap the console exporter for OTLP in production).
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createAgent, defineTool, withSpan } from '@lousho/build-ai-agent';
import { createOtelTraceExporter } from '@lousho/build-ai-agent/otel';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
const traceExporter = createOtelTraceExporter({ tracer: provider.getTracer('run-otel-example') });

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: city === 'Oslo' ? 4 : 21 }),
});

const agent = createAgent({
  name: 'travel-assistant',
  instructions: 'You are a travel assistant.',
  // Two tool calls in one turn (they run in parallel), then the answer; usage as a provider reports it.
  provider: mockModel([
    { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }, { name: 'get_weather', args: { city: 'Oslo' } }], usage: { promptTokens: 120, completionTokens: 30 } },
    { text: 'Paris is warmer (21 °C) than Oslo (4 °C).', usage: { promptTokens: 180, completionTokens: 14 } },
  ]),
  tools: [getWeather],
  traceExporter,
});

// The run nests under a span of your own: invoke_agent → chat, execute_tool × 2, chat.
const result = await withSpan(traceExporter, 'plan trip', (trace) => agent.send('Paris or Oslo this weekend?', { traceParent: trace }));
console.log(result.text);
await provider.shutdown();
