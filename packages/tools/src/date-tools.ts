import { z } from 'zod';
import { defineTool } from '@lousho/core';
import {
  DAY_NAMES,
  formatDate,
  formatLocalIso,
  formatOffset,
  formatTime,
  isValidTimeZone,
  wallClock,
  type DayName,
} from './zoned-time.js';

const timeZoneField = z
  .string()
  .refine(isValidTimeZone, {
    message: 'Unknown time zone. Use an IANA name such as "Europe/Paris", "America/New_York" or "UTC".',
  })
  .describe('IANA time zone name, e.g. "Europe/Paris" or "America/New_York".');

/** The current moment read in one time zone. */
export interface ZonedDateTime {
  /** The IANA zone the fields are read in. */
  timezone: string;
  /** ISO 8601 local date-time with the zone's offset, e.g. `2024-03-10T09:30:00-04:00`. */
  iso: string;
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:mm:ss`, 24-hour clock. */
  time: string;
  dayOfWeek: DayName;
  /** The zone's offset from UTC at this moment, e.g. `+05:30`. */
  utcOffset: string;
}

/** What `current_date` returns. */
export interface CurrentDateResult {
  /** ISO 8601 in UTC, e.g. `2024-03-10T13:30:00.000Z`. */
  iso: string;
  /** Milliseconds since the Unix epoch. */
  unixMs: number;
  /** UTC calendar date, `YYYY-MM-DD`. */
  date: string;
  /** UTC time, `HH:mm:ss`. */
  time: string;
  /** UTC day of the week. */
  dayOfWeek: DayName;
  /** The same moment in the requested `timezone`; present only when one was given. */
  local?: ZonedDateTime;
}

/**
 * `current_date`: the current date and time in UTC (ISO 8601), plus the local reading when the
 * model passes an IANA `timezone`. Register it under its name:
 * `createAgent({ tools: { current_date: currentDateTool } })`.
 */
export const currentDateTool = defineTool({
  name: 'current_date',
  displayName: 'Current date',
  description:
    'Get the current date and time (ISO 8601, UTC). Pass an IANA `timezone` to also get the local date, time, day of the week and UTC offset there.',
  input: z.object({ timezone: timeZoneField.optional() }),
  execute: ({ timezone }): CurrentDateResult => {
    const now = new Date();
    const utc = wallClock(now, 'UTC');
    const result: CurrentDateResult = {
      iso: now.toISOString(),
      unixMs: now.getTime(),
      date: formatDate(utc),
      time: formatTime(utc),
      dayOfWeek: DAY_NAMES[utc.weekday] ?? 'Sunday',
    };
    if (timezone !== undefined) result.local = zonedDateTime(now, timezone);
    return result;
  },
});

function zonedDateTime(date: Date, timezone: string): ZonedDateTime {
  const clock = wallClock(date, timezone);
  return {
    timezone,
    iso: formatLocalIso(clock),
    date: formatDate(clock),
    time: formatTime(clock),
    dayOfWeek: DAY_NAMES[clock.weekday] ?? 'Sunday',
    utcOffset: formatOffset(clock.offsetMinutes),
  };
}

// `2024-05-01`, optionally followed by a time and an optional `Z` / `±hh:mm` offset.
const DATE_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

interface ParsedDateInput {
  year: number;
  month: number;
  day: number;
  /** Set when the text names an instant (has an offset); its calendar day then depends on the zone. */
  instant?: Date;
}

function parseDateInput(text: string): ParsedDateInput | undefined {
  const match = DATE_INPUT.exec(text.trim());
  if (!match) return undefined;
  const [, y, m, d, hh, mm, ss, fraction, offset] = match;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  // Rejects days that do not exist, such as 2023-02-30.
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    return undefined;
  }
  if (hh !== undefined && (Number(hh) > 23 || Number(mm) > 59)) return undefined;
  if (offset === undefined) return { year, month, day };
  const zone = offset.toUpperCase() === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const instant = new Date(`${y}-${m}-${d}T${hh}:${mm}:${ss ?? '00'}${(fraction ?? '').slice(0, 4)}${zone}`);
  if (Number.isNaN(instant.getTime())) return undefined;
  return { year, month, day, instant };
}

/** What `day_name` returns. */
export interface DayNameResult {
  /** The calendar date the answer is for, `YYYY-MM-DD`. */
  date: string;
  /** `Monday` ... `Sunday`. */
  dayName: DayName;
  /** 0 = Sunday ... 6 = Saturday. */
  dayOfWeek: number;
  isWeekend: boolean;
  /** The zone used to pick the calendar day (when the date was "today" or an instant). */
  timezone?: string;
}

/**
 * `day_name`: the day of the week of a date (`YYYY-MM-DD`, or an ISO date-time), today by
 * default. Register it under its name: `createAgent({ tools: { day_name: dayNameTool } })`.
 */
export const dayNameTool = defineTool({
  name: 'day_name',
  displayName: 'Day of the week',
  description:
    'Get the day of the week (Monday ... Sunday) for a date in YYYY-MM-DD form or an ISO 8601 date-time; today when no date is given. `timezone` (IANA) decides which day "today" or a date-time with an offset falls on; the default is UTC.',
  input: z.object({
    date: z
      .string()
      .refine((text) => parseDateInput(text) !== undefined, {
        message: 'Not a valid date. Use YYYY-MM-DD (e.g. 2024-05-01) or an ISO 8601 date-time (e.g. 2024-05-01T18:30:00Z).',
      })
      .describe('The date, e.g. "2024-05-01" or "2024-05-01T18:30:00Z". Defaults to today.')
      .optional(),
    timezone: timeZoneField.optional(),
  }),
  execute: ({ date, timezone }): DayNameResult => {
    const parsed = date === undefined ? undefined : parseDateInput(date);
    if (parsed && !parsed.instant) return dayResult(parsed);
    const zone = timezone ?? 'UTC';
    const clock = wallClock(parsed?.instant ?? new Date(), zone);
    return { ...dayResult(clock), timezone: zone };
  },
});

function dayResult(day: { year: number; month: number; day: number }): DayNameResult {
  const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
  return {
    date: formatDate(day),
    dayName: DAY_NAMES[weekday] ?? 'Sunday',
    dayOfWeek: weekday,
    isWeekend: weekday === 0 || weekday === 6,
  };
}
