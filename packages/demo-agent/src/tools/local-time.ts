import { defineTool } from '@lousho/build-ai-agent';
import { z } from 'zod';
import { DEMO_TOOL_NAMES } from './names.js';

/** What `local_time` returns: read by the page, checked on the server against this schema. */
export interface DemoLocalTime {
  /** The IANA time zone the browser reports, e.g. `Europe/Paris`. */
  timeZone: string;
  /** The time on the user's clock, as the browser writes it (e.g. `14:05`). */
  localTime: string;
}

const localTimeSchema = z.object({ timeZone: z.string().trim().min(1).max(64), localTime: z.string().trim().min(1).max(64) });

/**
 * `local_time`: a browser tool (no `execute`). The run pauses on each call until the page sends
 * what its browser says (the demos do it with `demoBrowserTools`), checked against the schema.
 */
export function createLocalTimeTool() {
  return defineTool({
    name: DEMO_TOOL_NAMES.localTime,
    displayName: 'Your local time',
    description: "The user's time zone and local time, read in their browser.",
    input: z.object({}),
    outputSchema: localTimeSchema,
  });
}

/**
 * The demos' handlers of the browser tools (`browserTools` of a binding): `local_time` reads the
 * page's time zone and clock. Runs in a browser (or anywhere `Intl` is).
 */
export const demoBrowserTools = {
  [DEMO_TOOL_NAMES.localTime]: (): DemoLocalTime => ({
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    localTime: new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
  }),
};
