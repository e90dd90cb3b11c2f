/** A tool's progress report, read loosely: `{ step, total, message }`, `{ percent }`, a 0..1 number, or text. */
export interface ReadProgress {
  /** 0..1, when the report says how far along the call is. */
  fraction?: number;
  /** e.g. "Step 2 of 4". */
  counter?: string;
  message?: string;
}

export function readProgress(progress: unknown): ReadProgress | undefined {
  if (progress === undefined || progress === null) return undefined;
  if (typeof progress === 'number') return { fraction: clamp(progress > 1 ? progress / 100 : progress) };
  if (typeof progress === 'string') return { message: progress };
  if (typeof progress !== 'object') return undefined;
  const p = progress as Record<string, unknown>;
  const message = typeof p['message'] === 'string' ? p['message'] : undefined;
  const step = num(p['step']) ?? num(p['current']) ?? num(p['done']);
  const total = num(p['total']);
  if (step !== undefined && total !== undefined && total > 0) {
    return { fraction: clamp(step / total), counter: `Step ${step} of ${total}`, ...(message ? { message } : {}) };
  }
  const percent = num(p['percent']);
  if (percent !== undefined) return { fraction: clamp(percent / 100), counter: `${Math.round(percent)}%`, ...(message ? { message } : {}) };
  return message ? { message } : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
