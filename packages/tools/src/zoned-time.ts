export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** A weekday's English name, `Monday` to `Sunday`. */
export type DayName = (typeof DAY_NAMES)[number];

/** The wall-clock reading of an instant in one time zone. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday ... 6 = Saturday. */
  weekday: number;
  /** Minutes east of UTC at that instant. */
  offsetMinutes: number;
}

/** True when `Intl` knows the IANA zone (e.g. `Europe/Paris`, `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Reads `date` on a clock in `timeZone`. Throws a RangeError for an unknown zone. */
export function wallClock(date: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const year = parts.year ?? 0;
  const month = parts.month ?? 1;
  const day = parts.day ?? 1;
  const hour = (parts.hour ?? 0) % 24;
  const minute = parts.minute ?? 0;
  const second = parts.second ?? 0;
  // The zone's offset is the gap between its wall clock read as UTC and the real instant.
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const instant = Math.floor(date.getTime() / 1000) * 1000;
  const offsetMinutes = Math.round((asUtc - instant) / 60_000);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return { year, month, day, hour, minute, second, weekday, offsetMinutes };
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

export function formatDate(clock: Pick<WallClock, 'year' | 'month' | 'day'>): string {
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
}

export function formatTime(clock: Pick<WallClock, 'hour' | 'minute' | 'second'>): string {
  return `${pad(clock.hour)}:${pad(clock.minute)}:${pad(clock.second)}`;
}

/** `+02:00`, `-05:30`, `+00:00`. */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** ISO 8601 local date-time with the zone's offset, e.g. `2024-03-10T09:30:00-04:00`. */
export function formatLocalIso(clock: WallClock): string {
  return `${formatDate(clock)}T${formatTime(clock)}${formatOffset(clock.offsetMinutes)}`;
}
