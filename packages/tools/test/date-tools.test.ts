import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentDateTool, dayNameTool } from '../src/date-tools.js';
import { toolSchemaToJSONSchema } from '@lousho/core';
import { expectResult, expectToolError } from './helpers.js';

// A Wednesday, 23:30 UTC: already Thursday in Tokyo, still Wednesday in New York.
const NOW = new Date('2024-05-15T23:30:45.123Z');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('current_date', () => {
  it('is named for registration by key and describes its optional timezone argument', () => {
    expect(currentDateTool.name).toBe('current_date');
    const schema = toolSchemaToJSONSchema(currentDateTool.inputSchema);
    expect(schema).toMatchObject({ type: 'object', properties: { timezone: { type: 'string' } } });
    expect(schema.required ?? []).not.toContain('timezone');
  });

  it('returns the current instant in ISO 8601 UTC with date, time and weekday', async () => {
    const result = await expectResult(currentDateTool, {});
    expect(result).toEqual({
      iso: '2024-05-15T23:30:45.123Z',
      unixMs: NOW.getTime(),
      date: '2024-05-15',
      time: '23:30:45',
      dayOfWeek: 'Wednesday',
    });
  });

  it('adds the local reading for an IANA timezone', async () => {
    const tokyo = await expectResult(currentDateTool, { timezone: 'Asia/Tokyo' });
    expect(tokyo.local).toEqual({
      timezone: 'Asia/Tokyo',
      iso: '2024-05-16T08:30:45+09:00',
      date: '2024-05-16',
      time: '08:30:45',
      dayOfWeek: 'Thursday',
      utcOffset: '+09:00',
    });
    const newYork = await expectResult(currentDateTool, { timezone: 'America/New_York' });
    expect(newYork.local).toMatchObject({ iso: '2024-05-15T19:30:45-04:00', dayOfWeek: 'Wednesday', utcOffset: '-04:00' });
    const india = await expectResult(currentDateTool, { timezone: 'Asia/Kolkata' });
    expect(india.local?.utcOffset).toBe('+05:30');
  });

  it('follows daylight saving time', async () => {
    vi.setSystemTime(new Date('2024-01-15T12:00:00Z'));
    const winter = await expectResult(currentDateTool, { timezone: 'Europe/Paris' });
    expect(winter.local).toMatchObject({ iso: '2024-01-15T13:00:00+01:00', utcOffset: '+01:00' });
  });

  it('answers an unknown timezone with a validation error naming the field', async () => {
    const error = await expectToolError(currentDateTool, { timezone: 'Mars/Olympus' });
    expect(error.kind).toBe('validation');
    expect(error.issues?.[0]?.path).toBe('timezone');
    expect(error.issues?.[0]?.message).toMatch(/IANA/);
  });
});

describe('day_name', () => {
  it('is named day_name and defaults to today (UTC)', async () => {
    expect(dayNameTool.name).toBe('day_name');
    const result = await expectResult(dayNameTool, {});
    expect(result).toEqual({ date: '2024-05-15', dayName: 'Wednesday', dayOfWeek: 3, isWeekend: false, timezone: 'UTC' });
  });

  it("uses the timezone for today's day", async () => {
    const result = await expectResult(dayNameTool, { timezone: 'Asia/Tokyo' });
    expect(result).toMatchObject({ date: '2024-05-16', dayName: 'Thursday', timezone: 'Asia/Tokyo' });
  });

  it.each([
    ['2024-02-29', 'Thursday', 4, false],
    ['2000-01-01', 'Saturday', 6, true],
    ['1969-07-20', 'Sunday', 0, true],
    ['2024-12-31T23:59', 'Tuesday', 2, false],
  ])('%s is a %s', async (date, dayName, dayOfWeek, isWeekend) => {
    const result = await expectResult(dayNameTool, { date });
    expect(result).toMatchObject({ dayName, dayOfWeek, isWeekend });
    expect(result.date).toBe(date.slice(0, 10));
  });

  it('reads a date-time with an offset as an instant, in the requested zone', async () => {
    const utc = await expectResult(dayNameTool, { date: '2024-05-15T23:30:00Z' });
    expect(utc).toMatchObject({ date: '2024-05-15', dayName: 'Wednesday', timezone: 'UTC' });
    const tokyo = await expectResult(dayNameTool, { date: '2024-05-15T23:30:00Z', timezone: 'Asia/Tokyo' });
    expect(tokyo).toMatchObject({ date: '2024-05-16', dayName: 'Thursday' });
    const offset = await expectResult(dayNameTool, { date: '2024-05-16T01:00:00+0200' });
    expect(offset).toMatchObject({ date: '2024-05-15', dayName: 'Wednesday' });
  });

  it.each(['2023-02-29', '2024-13-01', 'tomorrow', '15/05/2024', '2024-05-15T25:00'])(
    'rejects %s with a validation error that shows the expected form',
    async (date) => {
      const error = await expectToolError(dayNameTool, { date });
      expect(error.kind).toBe('validation');
      expect(error.issues?.[0]?.message).toMatch(/YYYY-MM-DD/);
    },
  );
});
