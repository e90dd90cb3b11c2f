import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CronExpressionError, parseCronExpression } from '../src/index.js';

/** The first `count` fire times after `from`, as ISO strings. */
function runs(expression: string, timezone: string, from: string, count: number): string[] {
  const schedule = parseCronExpression(expression, timezone);
  const out: string[] = [];
  let after = new Date(from);
  for (let i = 0; i < count; i++) {
    after = schedule.nextRun(after);
    out.push(after.toISOString().replace('.000Z', 'Z'));
  }
  return out;
}

describe('parseCronExpression: the documented syntax', () => {
  it.each([
    ['the documented example', '*/15 9-17 * * MON-FRI', 'Europe/Paris', '2025-06-06T15:50:00Z', ['2025-06-09T07:00:00Z', '2025-06-09T07:15:00Z', '2025-06-09T07:30:00Z']],
    ['a list', '0 0 1,15 * *', 'UTC', '2025-01-02T00:00:00Z', ['2025-01-15T00:00:00Z', '2025-02-01T00:00:00Z', '2025-02-15T00:00:00Z']],
    ['a range', '0 0 * * 1-3', 'UTC', '2025-06-01T00:00:00Z', ['2025-06-02T00:00:00Z', '2025-06-03T00:00:00Z', '2025-06-04T00:00:00Z']],
    ['a step on a range', '10-40/10 0 1 JAN *', 'UTC', '2025-01-01T00:00:00Z', ['2025-01-01T00:10:00Z', '2025-01-01T00:20:00Z', '2025-01-01T00:30:00Z']],
    ['month names', '0 0 1 jan,Jul *', 'UTC', '2025-02-01T00:00:00Z', ['2025-07-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-07-01T00:00:00Z']],
    ['7 is Sunday', '0 0 * * 7', 'UTC', '2025-06-02T00:00:00Z', ['2025-06-08T00:00:00Z', '2025-06-15T00:00:00Z', '2025-06-22T00:00:00Z']],
    ['0 is Sunday', '0 0 * * 0', 'UTC', '2025-06-02T00:00:00Z', ['2025-06-08T00:00:00Z', '2025-06-15T00:00:00Z', '2025-06-22T00:00:00Z']],
    ['a weekday range ending on 7', '0 0 * * FRI-7', 'UTC', '2025-06-02T00:00:00Z', ['2025-06-06T00:00:00Z', '2025-06-07T00:00:00Z', '2025-06-08T00:00:00Z']],
    ['@hourly', '@hourly', 'UTC', '2025-06-02T00:10:00Z', ['2025-06-02T01:00:00Z', '2025-06-02T02:00:00Z', '2025-06-02T03:00:00Z']],
    ['@daily', '@daily', 'UTC', '2025-06-02T00:10:00Z', ['2025-06-03T00:00:00Z', '2025-06-04T00:00:00Z', '2025-06-05T00:00:00Z']],
    ['@weekly (Sundays at midnight)', '@weekly', 'UTC', '2025-06-02T00:10:00Z', ['2025-06-08T00:00:00Z', '2025-06-15T00:00:00Z', '2025-06-22T00:00:00Z']],
    ['@monthly', '@MONTHLY', 'UTC', '2025-06-02T00:10:00Z', ['2025-07-01T00:00:00Z', '2025-08-01T00:00:00Z', '2025-09-01T00:00:00Z']],
    // Both day fields restricted: a day matches if either does (the 13th, and every Friday).
    ['day-of-month OR day-of-week', '0 0 13 * FRI', 'UTC', '2025-06-01T00:00:00Z', ['2025-06-06T00:00:00Z', '2025-06-13T00:00:00Z', '2025-06-20T00:00:00Z']],
    ['only day-of-month restricted', '0 0 13 * *', 'UTC', '2025-06-01T00:00:00Z', ['2025-06-13T00:00:00Z', '2025-07-13T00:00:00Z', '2025-08-13T00:00:00Z']],
    ['Feb 29 waits for a leap year', '0 0 29 2 *', 'UTC', '2025-01-01T00:00:00Z', ['2028-02-29T00:00:00Z', '2032-02-29T00:00:00Z', '2036-02-29T00:00:00Z']],
  ])('%s: %s', (_name, expression, zone, from, expected) => {
    expect(runs(expression, zone, from, 3)).toEqual(expected);
  });

  it('reads the fields in the given zone', () => {
    expect(runs('0 9 * * *', 'America/New_York', '2025-06-02T00:00:00Z', 1)).toEqual(['2025-06-02T13:00:00Z']);
    expect(runs('0 9 * * *', 'Asia/Kolkata', '2025-06-02T00:00:00Z', 1)).toEqual(['2025-06-02T03:30:00Z']);
  });

  it('defaults to the machine zone', () => {
    const local = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(parseCronExpression('0 9 * * *').timezone).toBe(local);
  });
});

describe('parseCronExpression: daylight saving', () => {
  it.each([
    // Europe/Paris 2025: 02:00 CET -> 03:00 CEST on Mar 30; 03:00 CEST -> 02:00 CET on Oct 26.
    ['Paris, 02:30 does not exist on Mar 30: skipped that day', '30 2 * * *', 'Europe/Paris', '2025-03-28T12:00:00Z', ['2025-03-29T01:30:00Z', '2025-03-31T00:30:00Z', '2025-04-01T00:30:00Z']],
    ['Paris, 02:30 happens twice on Oct 26: fires once', '30 2 * * *', 'Europe/Paris', '2025-10-25T12:00:00Z', ['2025-10-26T00:30:00Z', '2025-10-27T01:30:00Z', '2025-10-28T01:30:00Z']],
    ['Paris, a fixed hour with a minute step fires each time once', '*/30 2 * * *', 'Europe/Paris', '2025-10-25T12:00:00Z', ['2025-10-26T00:00:00Z', '2025-10-26T00:30:00Z', '2025-10-27T01:00:00Z']],
    ['Paris, a list of hours fires once in the repeated hour', '30 2,14 * * *', 'Europe/Paris', '2025-10-25T23:00:00Z', ['2025-10-26T00:30:00Z', '2025-10-26T13:30:00Z', '2025-10-27T01:30:00Z']],
    ['Paris, hourly stays hourly at fall back', '0 * * * *', 'Europe/Paris', '2025-10-25T23:30:00Z', ['2025-10-26T00:00:00Z', '2025-10-26T01:00:00Z', '2025-10-26T02:00:00Z']],
    ['Paris, hourly stays hourly at spring forward', '0 * * * *', 'Europe/Paris', '2025-03-29T23:30:00Z', ['2025-03-30T00:00:00Z', '2025-03-30T01:00:00Z', '2025-03-30T02:00:00Z']],
    ['Paris, every two hours keeps its pace at fall back', '0 */2 * * *', 'Europe/Paris', '2025-10-25T21:30:00Z', ['2025-10-25T22:00:00Z', '2025-10-26T00:00:00Z', '2025-10-26T01:00:00Z']],
    ['Paris, 09:00 stays 09:00 local across the change', '0 9 * * *', 'Europe/Paris', '2025-03-29T00:00:00Z', ['2025-03-29T08:00:00Z', '2025-03-30T07:00:00Z', '2025-03-31T07:00:00Z']],
    // America/New_York 2025: 02:00 EST -> 03:00 EDT on Mar 9; 02:00 EDT -> 01:00 EST on Nov 2.
    ['New York, 02:30 does not exist on Mar 9: skipped that day', '30 2 * * *', 'America/New_York', '2025-03-08T12:00:00Z', ['2025-03-10T06:30:00Z', '2025-03-11T06:30:00Z', '2025-03-12T06:30:00Z']],
    ['New York, 01:30 happens twice on Nov 2: fires once', '30 1 * * *', 'America/New_York', '2025-11-01T12:00:00Z', ['2025-11-02T05:30:00Z', '2025-11-03T06:30:00Z', '2025-11-04T06:30:00Z']],
    ['New York, hourly stays hourly at fall back', '0 * * * *', 'America/New_York', '2025-11-02T04:30:00Z', ['2025-11-02T05:00:00Z', '2025-11-02T06:00:00Z', '2025-11-02T07:00:00Z']],
    ['New York, hourly stays hourly at spring forward', '0 * * * *', 'America/New_York', '2025-03-09T05:30:00Z', ['2025-03-09T06:00:00Z', '2025-03-09T07:00:00Z', '2025-03-09T08:00:00Z']],
    ['New York, weekdays at 09:00 across the change', '0 9 * * MON-FRI', 'America/New_York', '2025-03-06T00:00:00Z', ['2025-03-06T14:00:00Z', '2025-03-07T14:00:00Z', '2025-03-10T13:00:00Z']],
    // Australia/Lord_Howe 2025 (a half-hour shift): 02:00 +10:30 -> 02:30 +11 on Oct 5; 02:00 +11 -> 01:30 +10:30 on Apr 6.
    ['Lord Howe, 02:00 does not exist on Oct 5: skipped that day', '0 2 * * *', 'Australia/Lord_Howe', '2025-10-04T00:00:00Z', ['2025-10-05T15:00:00Z', '2025-10-06T15:00:00Z', '2025-10-07T15:00:00Z']],
    ['Lord Howe, 02:15 is inside the half-hour gap: skipped', '15 2 * * *', 'Australia/Lord_Howe', '2025-10-04T00:00:00Z', ['2025-10-05T15:15:00Z', '2025-10-06T15:15:00Z', '2025-10-07T15:15:00Z']],
    ['Lord Howe, 02:45 is after the gap: fires', '45 2 * * *', 'Australia/Lord_Howe', '2025-10-04T00:00:00Z', ['2025-10-04T15:45:00Z', '2025-10-05T15:45:00Z', '2025-10-06T15:45:00Z']],
    ['Lord Howe, 01:45 happens twice on Apr 6: fires once', '45 1 * * *', 'Australia/Lord_Howe', '2025-04-05T12:00:00Z', ['2025-04-05T14:45:00Z', '2025-04-06T15:15:00Z', '2025-04-07T15:15:00Z']],
    ['Lord Howe, every half hour keeps its pace at fall back', '*/30 * * * *', 'Australia/Lord_Howe', '2025-04-05T13:50:00Z', ['2025-04-05T14:00:00Z', '2025-04-05T14:30:00Z', '2025-04-05T15:00:00Z']],
    ['Lord Howe, hourly at fall back (the clock repeats only 01:30-02:00)', '0 * * * *', 'Australia/Lord_Howe', '2025-04-05T12:30:00Z', ['2025-04-05T13:00:00Z', '2025-04-05T14:00:00Z', '2025-04-05T15:30:00Z']],
    ['Lord Howe, hourly at spring forward (02:00 does not exist)', '0 * * * *', 'Australia/Lord_Howe', '2025-10-04T13:00:00Z', ['2025-10-04T13:30:00Z', '2025-10-04T14:30:00Z', '2025-10-04T16:00:00Z']],
  ])('%s', (_name, expression, zone, from, expected) => {
    expect(runs(expression, zone, from, 3)).toEqual(expected);
  });
});

describe('CronExpressionError', () => {
  it.each([
    ['61 * * * *', 'minute', /61 is out of range 0-59/],
    ['* 24 * * *', 'hour', /24 is out of range 0-23/],
    ['* * 0 * *', 'day-of-month', /0 is out of range 1-31/],
    ['* * * 13 *', 'month', /13 is out of range 1-12/],
    ['* * * FOO *', 'month', /'FOO' is neither a number nor one of JAN/],
    ['* * * * 8', 'day-of-week', /8 is out of range 0-7/],
    ['* * * * MONDAY', 'day-of-week', /'MONDAY' is neither/],
    ['*/0 * * * *', 'minute', /step of at least 1/],
    ['5/15 * * * *', 'minute', /steps from a single value/],
    ['5-1 * * * *', 'minute', /starts after it ends/],
    ['1,,2 * * * *', 'minute', /empty list item/],
    ['L * * * *', 'minute', /'L' is not a number/],
    ['* * * *', 'expression', /has 4 fields/],
    ['0 * * * * *', 'expression', /has 6 fields/],
    ['@yearly', 'expression', /not a supported shorthand/],
    ['0 0 31 2 *', 'day-of-month', /never falls in month/],
  ])('%s names the %s field and shows an example', (expression, field, problem) => {
    let caught: unknown;
    try {
      parseCronExpression(expression, 'UTC');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CronExpressionError);
    const error = caught as CronExpressionError;
    expect(error.code).toBe('LOUSHO_INVALID_CRON_EXPRESSION');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(problem);
    expect(error.message).toContain(`'${expression}'`);
    expect(error.message).toMatch(/Example: .+/);
    expect(error.example.length).toBeGreaterThan(0);
  });

  it('refuses an unknown time zone', () => {
    expect(() => parseCronExpression('0 9 * * *', 'Mars/Olympus')).toThrow(expect.objectContaining({ field: 'timezone', code: 'LOUSHO_INVALID_CRON_EXPRESSION' }));
  });

  it('every valid single-value field is accepted, and the next run is always later', () => {
    const field = (min: number, max: number) => fc.integer({ min, max }).map(String);
    fc.assert(
      fc.property(field(0, 59), field(0, 23), field(1, 28), field(1, 12), field(0, 7), fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), (m, h, dom, mon, dow, after) => {
        const schedule = parseCronExpression(`${m} ${h} ${dom} ${mon} ${dow}`, 'Europe/Paris');
        const next = schedule.nextRun(after);
        expect(next.getTime()).toBeGreaterThan(after.getTime());
        expect(next.getUTCMinutes() % 15).toBe(Number(m) % 15); // whole-quarter offsets only in Paris
      }),
      { numRuns: 200 },
    );
  });

  it('arbitrary text never escapes as anything but a CronExpressionError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        try {
          parseCronExpression(text, 'UTC');
        } catch (error) {
          expect(error).toBeInstanceOf(CronExpressionError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
