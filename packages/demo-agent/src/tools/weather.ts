import { defineTool } from '@lousho/build-ai-agent';
import { z } from 'zod';
import { canonicalCity } from '../cities.js';
import { foldText, hashText } from '../text.js';
import { DEMO_TOOL_NAMES } from './names.js';
import { pause } from '../pause.js';

/** What `get_weather` returns: made-up but stable numbers for the city. */
export interface DemoWeather {
  city: string;
  temperatureC: number;
  conditions: string;
  humidityPercent: number;
  windKph: number;
}

/** How long a lookup takes at delay scale 1, in ms. */
export const WEATHER_LOOKUP_MS = 100;

const CONDITIONS = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'clear', 'windy', 'foggy', 'showers'];

/** Deterministic pseudo-weather: the same city always gets the same report. */
export function demoWeatherFor(city: string): DemoWeather {
  const name = canonicalCity(city);
  const hash = hashText(foldText(name));
  const temperatureC = -4 + (hash % 38);
  let conditions = CONDITIONS[(hash >>> 8) % CONDITIONS.length] ?? 'cloudy';
  if (temperatureC <= 1 && (conditions === 'light rain' || conditions === 'showers')) conditions = 'light snow';
  return {
    city: name,
    temperatureC,
    conditions,
    humidityPercent: 30 + ((hash >>> 16) % 61),
    windKph: 3 + ((hash >>> 23) % 35),
  };
}

export function createWeatherTool(options: { delayScale?: number } = {}) {
  const delayMs = WEATHER_LOOKUP_MS * (options.delayScale ?? 1);
  return defineTool({
    name: DEMO_TOOL_NAMES.weather,
    displayName: 'Weather',
    description: 'Get the current weather for a city: temperature in °C, conditions, humidity and wind. The demo makes the numbers up (they are stable per city).',
    input: z.object({
      city: z.string().trim().min(1, 'city must not be empty').max(80).describe('The city, e.g. "Paris".'),
    }),
    async execute({ city }, ctx): Promise<DemoWeather> {
      await pause(delayMs, ctx.abortSignal);
      return demoWeatherFor(city);
    },
  });
}
