import { Cron } from 'croner';
import { ERROR_CODES, SDKError } from '@lousho/core';
import { checkCronFields, WHOLE_EXAMPLE, type CronField } from './cron-fields.js';
import { canonicalTimeZone, isRepeatedWallTime, localTimeZone } from './time-zone.js';

export type { CronField } from './cron-fields.js';

/** A cron expression (or its time zone) that cannot be used. `field` names the part at fault. */
export class CronExpressionError extends SDKError {
  /** The field at fault, or `'expression'` for the whole (field count, shorthand), or `'timezone'`. */
  readonly field: CronField | 'expression' | 'timezone';
  readonly expression: string;
  /** A valid value for that field. */
  readonly example: string;

  constructor(expression: string, field: CronField | 'expression' | 'timezone', problem: string, example: string) {
    const where = field === 'expression' ? '' : field === 'timezone' ? ' (time zone)' : ` (${field} field)`;
    super(ERROR_CODES.LOUSHO_INVALID_CRON_EXPRESSION, `Invalid cron expression '${expression}'${where}: ${problem}. Example: ${example}.`, {
      hint: `Cron expressions have five fields: minute hour day-of-month month day-of-week, e.g. ${WHOLE_EXAMPLE}.`,
    });
    this.name = 'CronExpressionError';
    this.field = field;
    this.expression = expression;
    this.example = example;
  }
}

/** A parsed schedule: `nextRun(after)` is the first fire time strictly after `after`. */
export interface CronSchedule {
  readonly expression: string;
  /** The IANA zone the fields are read in. */
  readonly timezone: string;
  /**
   * The first fire time strictly after `after` (default: now), read in `timezone`. Throws a
   * `CronExpressionError` when no date after `after` matches (a schedule that can never fire is
   * already refused by `parseCronExpression`).
   */
  nextRun(after?: Date): Date;
}

// Each filtered candidate moves the search forward by at least one match, and a day has at most
// one clock change: this bound is never reached by a valid schedule.
const MAX_CANDIDATES = 10_000;

/**
 * Parses a five-field cron expression read in `timezone` (an IANA name; default: the machine's
 * zone). Throws a `CronExpressionError` naming the field at fault and showing a valid example.
 *
 * Daylight-saving rules: a wall time the clock skips (spring forward) does not fire that day; a
 * wall time the clock repeats (fall back) fires once, at its first pass, unless the hour field
 * starts with `*` (`0 * * * *`, `*\/2`), which keeps firing on both passes so hourly stays hourly.
 */
export function parseCronExpression(expression: string, timezone?: string): CronSchedule {
  if (typeof expression !== 'string') {
    throw new CronExpressionError(String(expression), 'expression', 'it is not a string', WHOLE_EXAMPLE);
  }
  const zone = timezone === undefined ? localTimeZone() : canonicalTimeZone(timezone);
  if (zone === undefined) {
    throw new CronExpressionError(expression, 'timezone', `'${String(timezone)}' is not an IANA time zone`, "'Europe/Paris' or 'America/New_York'");
  }
  const checked = checkCronFields(expression);
  if ('error' in checked) {
    const { field, problem, example } = checked.error;
    throw new CronExpressionError(expression, field ?? 'expression', problem, example);
  }
  const fields = checked.fields;
  const cron = new Cron(fields.join(' '), {
    timezone: zone,
    mode: '5-part',
    paused: true,
    // Times with a fixed hour and minute fire once when repeated; the rest is filtered below.
    fixedTimeRule: 'no-wildcard',
  });
  const everyHour = fields[1]!.startsWith('*');

  const accepts = (candidate: Date): boolean => {
    // croner moves a fixed time the clock skips to just after the gap; we skip it that day.
    if (!cron.match(candidate)) return false;
    // A repeated wall time fires at its first pass only, unless the schedule runs every hour.
    return everyHour || !isRepeatedWallTime(candidate.getTime(), zone);
  };

  const nextRun = (after: Date = new Date()): Date => {
    let from = after;
    for (let i = 0; i < MAX_CANDIDATES; i++) {
      const candidate = cron.nextRun(from);
      if (!candidate) break;
      if (accepts(candidate)) return candidate;
      from = candidate;
    }
    throw new CronExpressionError(expression, 'day-of-month', 'no date ever matches these day-of-month and month fields', "'1-28' (every month has those days)");
  };

  // An expression that can never fire (`0 0 31 2 *`) is refused now rather than at its first run.
  if (!cron.nextRun(new Date())) {
    throw new CronExpressionError(expression, 'day-of-month', `day '${fields[2]}' never falls in month '${fields[3]}'`, "'1-28' (every month has those days)");
  }
  return { expression, timezone: zone, nextRun };
}
