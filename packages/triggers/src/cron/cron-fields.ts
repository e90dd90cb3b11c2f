/**
 * The documented cron grammar, checked field by field so that a mistake gets a message naming the
 * field and showing a valid example (the scheduling itself is croner's). Only the documented
 * syntax passes: `*`, lists, ranges, steps on `*` or a range, month and weekday names, `0`/`7` for
 * Sunday, and the `@hourly`, `@daily`, `@weekly`, `@monthly` shorthands.
 */

export type CronField = 'minute' | 'hour' | 'day-of-month' | 'month' | 'day-of-week';

interface FieldSpec {
  name: CronField;
  min: number;
  max: number;
  names?: readonly string[];
  example: string;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

export const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59, example: "'*/15' (every 15 minutes) or '0,30'" },
  { name: 'hour', min: 0, max: 23, example: "'9-17' (9:00 to 17:59) or '*/2'" },
  { name: 'day-of-month', min: 1, max: 31, example: "'1,15' or '1-7'" },
  { name: 'month', min: 1, max: 12, names: MONTHS, example: "'JAN-MAR' or '1,4,7,10'" },
  // Names map to 0..6; the number 7 is Sunday too.
  { name: 'day-of-week', min: 0, max: 7, names: WEEKDAYS, example: "'MON-FRI' or '0,6' (0 and 7 are Sunday)" },
];

export const SHORTHANDS: Readonly<Record<string, string>> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
};

/** What is wrong with one field, or with the expression as a whole (`field: undefined`). */
export interface CronProblem {
  field: CronField | undefined;
  problem: string;
  example: string;
}

export const WHOLE_EXAMPLE = "'*/15 9-17 * * MON-FRI' (minute hour day-of-month month day-of-week)";

/** The expression as five upper-cased fields, or the first problem found. */
export function checkCronFields(expression: string): { fields: string[] } | { error: CronProblem } {
  const trimmed = expression.trim();
  if (trimmed.startsWith('@')) {
    const expanded = SHORTHANDS[trimmed.toLowerCase()];
    if (expanded) return { fields: expanded.split(' ') };
    return {
      error: { field: undefined, problem: `'${trimmed}' is not a supported shorthand`, example: Object.keys(SHORTHANDS).join(', ') },
    };
  }
  const parts = trimmed.split(/\s+/).filter((part) => part !== '');
  if (parts.length !== 5) {
    return {
      error: {
        field: undefined,
        problem: `it has ${parts.length} field${parts.length === 1 ? '' : 's'}; a cron expression has exactly 5 (seconds and years are not supported)`,
        example: WHOLE_EXAMPLE,
      },
    };
  }
  const fields: string[] = [];
  for (let index = 0; index < FIELDS.length; index++) {
    const spec = FIELDS[index]!;
    const text = parts[index]!.toUpperCase();
    const problem = checkField(text, spec);
    if (problem) return { error: { field: spec.name, problem, example: spec.example } };
    fields.push(text);
  }
  return { fields };
}

function checkField(text: string, spec: FieldSpec): string | undefined {
  for (const item of text.split(',')) {
    if (item === '') return `'${text}' has an empty list item`;
    const problem = checkItem(item, spec);
    if (problem) return problem;
  }
  return undefined;
}

function checkItem(item: string, spec: FieldSpec): string | undefined {
  const [base, step, ...extra] = item.split('/');
  if (extra.length > 0) return `'${item}' has more than one '/'`;
  if (step !== undefined) {
    if (!/^\d+$/.test(step) || Number(step) < 1) return `'${item}' needs a whole step of at least 1 after '/'`;
    if (Number(step) > spec.max - spec.min + 1) return `the step in '${item}' is larger than the field's range ${spec.min}-${spec.max}`;
    if (base !== '*' && !base!.includes('-')) return `'${item}' steps from a single value; write a range ('${base}-${spec.max}/${step}') or '*/${step}'`;
  }
  if (base === '*') return undefined;
  const bounds = base!.split('-');
  if (bounds.length > 2) return `'${item}' is not a range of two values`;
  const values: number[] = [];
  for (const bound of bounds) {
    const value = valueOf(bound, spec);
    if (typeof value === 'string') return value;
    values.push(value);
  }
  if (values.length === 2 && values[0]! > values[1]!) return `the range '${base}' starts after it ends (ranges do not wrap around)`;
  return undefined;
}

function valueOf(text: string, spec: FieldSpec): number | string {
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value < spec.min || value > spec.max) return `${value} is out of range ${spec.min}-${spec.max}`;
    return value;
  }
  const named = spec.names?.indexOf(text) ?? -1;
  if (named >= 0) return spec.names === MONTHS ? named + 1 : named;
  if (text === '') return 'a range is missing a value';
  return spec.names
    ? `'${text}' is neither a number nor one of ${spec.names.join(', ')}`
    : `'${text}' is not a number`;
}
