/** Time-zone arithmetic on `Intl` (no time-zone database of our own). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The zone's name as `Intl` spells it, or undefined when it is not a zone `Intl` knows. */
export function canonicalTimeZone(timeZone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The machine's zone (what `timezone` defaults to). */
export function localTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone's offset from UTC at `instant`, in milliseconds (east positive). */
export function offsetAt(instant: number, timeZone: string): number {
  const parts = formatter(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const whole = instant - (instant % 1000);
  return wall - whole;
}

/**
 * True when the wall-clock time of `instant` already happened once, earlier, in the same zone:
 * the second pass through the hour (or half hour) a fall-back change repeats.
 */
export function isRepeatedWallTime(instant: number, timeZone: string): boolean {
  const now = offsetAt(instant, timeZone);
  // Clock changes are at most a few hours apart from the times they repeat.
  const before = offsetAt(instant - 3 * 3_600_000, timeZone);
  if (before <= now) return false;
  const earlier = instant - (before - now);
  return offsetAt(earlier, timeZone) === before;
}
