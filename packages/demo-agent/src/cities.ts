import { foldText, titleCase } from './text.js';

/** The cities the demo model recognises anywhere in a message. */
export const KNOWN_CITIES: readonly string[] = [
  'Paris', 'London', 'Tokyo', 'New York', 'Berlin', 'Madrid', 'Rome', 'Lisbon', 'Amsterdam', 'Vienna',
  'Prague', 'Stockholm', 'Oslo', 'Copenhagen', 'Dublin', 'Zurich', 'Istanbul', 'Cairo', 'Nairobi',
  'Cape Town', 'Lagos', 'Dubai', 'Mumbai', 'Delhi', 'Bangkok', 'Singapore', 'Hong Kong', 'Beijing',
  'Shanghai', 'Seoul', 'Sydney', 'Melbourne', 'Auckland', 'Toronto', 'Vancouver', 'San Francisco',
  'Los Angeles', 'Chicago', 'Mexico City', 'São Paulo', 'Buenos Aires', 'Rio de Janeiro', 'Lima',
];

/** When a weather question names no city at all. */
export const DEFAULT_CITY = 'Paris';

const FOLDED = KNOWN_CITIES.map((name) => ({ name, pattern: new RegExp(`\\b${foldText(name).replace(/ /g, '\\s+')}\\b`, 'g') }));

// Words after "in"/"for"/"at" that are not places ("weather in the morning", "forecast for today").
const NOT_A_PLACE = new Set([
  'the', 'a', 'an', 'my', 'your', 'our', 'their', 'this', 'that', 'it', 'there', 'here', 'me', 'us',
  'today', 'tomorrow', 'tonight', 'general', 'celsius', 'fahrenheit', 'degrees', 'detail', 'details',
  'advance', 'case', 'order', 'short', 'brief', 'time', 'morning', 'evening', 'afternoon', 'week',
]);

/** The known cities a text mentions, in the order it mentions them, each once. */
export function findKnownCities(text: string): string[] {
  const folded = foldText(text);
  const hits: { name: string; index: number }[] = [];
  for (const { name, pattern } of FOLDED) {
    pattern.lastIndex = 0;
    const match = pattern.exec(folded);
    if (match) hits.push({ name, index: match.index });
  }
  return hits.sort((a, b) => a.index - b.index).map((hit) => hit.name);
}

/** The place after "in", "for" or "at" ("weather in Gotham City" -> "Gotham City"), if any. */
export function placeAfterPreposition(text: string): string | undefined {
  // Case-sensitive on purpose: only capitalised words continue a place name ("in Porto Alegre please").
  const pattern = /\b(?:[Ii]n|[Ff]or|[Aa]t)\s+(\p{L}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/gu;
  for (const match of text.matchAll(pattern)) {
    const place = match[1] ?? '';
    const firstWord = place.split(/\s+/)[0] ?? '';
    if (NOT_A_PLACE.has(firstWord.toLowerCase())) continue;
    return titleCase(place);
  }
  return undefined;
}

/** The spelling a city is shown with: the known name when it is one, else the input in title case. */
export function canonicalCity(city: string): string {
  const trimmed = city.trim().replace(/\s+/g, ' ');
  const folded = foldText(trimmed);
  return KNOWN_CITIES.find((name) => foldText(name) === folded) ?? titleCase(trimmed);
}
