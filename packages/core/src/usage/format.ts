import type { RunUsage } from '@lousho/protocol';

/** The fields `formatUsage` reads; older saved usage with only some of them is fine too. */
export type FormattableUsage = Partial<
  Pick<RunUsage, 'inputTokens' | 'outputTokens' | 'promptTokens' | 'completionTokens' | 'costUsd' | 'estimated' | 'modelCalls'>
>;

/** Below this, a cost prints as `<$0.000001` instead of a row of zeros. */
const SMALLEST_SHOWN_USD = 0.000001;
const MAX_DECIMALS = 6;

/**
 * One line for logs and UIs: `1,234 in / 567 out tokens · $0.0042 (2 model calls)`.
 * A leading `~` marks estimated counts; the cost part is left out when the cost is unknown.
 * Locale-independent, so the same usage prints the same everywhere.
 */
export function formatUsage(usage: FormattableUsage): string {
  const input = readCount(usage?.inputTokens) ?? readCount(usage?.promptTokens) ?? 0;
  const output = readCount(usage?.outputTokens) ?? readCount(usage?.completionTokens) ?? 0;
  let line = `${usage?.estimated === true ? '~' : ''}${groupThousands(String(input))} in / ${groupThousands(String(output))} out tokens`;
  const cost = usage?.costUsd;
  if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) line += ` · ${formatUsd(cost)}`;
  const calls = readCount(usage?.modelCalls);
  if (calls !== undefined) line += ` (${groupThousands(String(calls))} model call${calls === 1 ? '' : 's'})`;
  return line;
}

/**
 * Cost rule: $1 and more get cents (`$12.35`, `$1,234.50`); below $1, two significant digits with at
 * least two decimals and at most six (`$0.42`, `$0.042`, `$0.0042`, `$0.000012`); zero is `$0.00`.
 */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < SMALLEST_SHOWN_USD) return `<$${SMALLEST_SHOWN_USD.toFixed(MAX_DECIMALS)}`;
  if (usd >= 1) {
    const [whole = '0', cents = '00'] = usd.toFixed(2).split('.');
    return `$${groupThousands(whole)}.${cents}`;
  }
  const decimals = Math.min(MAX_DECIMALS, Math.max(2, 1 - Math.floor(Math.log10(usd))));
  // Rounding can leave zeros past the second significant digit (0.00999 -> 0.0100): drop them.
  const text = usd.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, '$1');
  return `$${text}`;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function readCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}
