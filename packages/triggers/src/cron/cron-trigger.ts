import type { AgentInput, ExecutionResult } from '@lousho/core';
import { invalidConfig } from '../errors.js';
import { ERROR_CODES, SDKError } from '@lousho/core';
import {
  consoleLogger,
  defaultHandler,
  isExecutionResult,
  openSession,
  type TriggerAdapter,
  type TriggerAgent,
  type TriggerHandler,
  type TriggerOptions,
} from '../trigger.js';
import { parseCronExpression, type CronSchedule } from './cron-expression.js';
import { timerAt } from './long-timeout.js';

export interface CronTriggerOptions extends TriggerOptions {
  /** A five-field cron expression (see `parseCronExpression`). Give this or `intervalMs`. */
  cron?: string;
  /** A fixed period in milliseconds, counted from `listen()`. Give this or `cron`. */
  intervalMs?: number;
  /** The IANA zone `cron` is read in. Default: the machine's zone. */
  timezone?: string;
  /** What the agent is sent at each fire, or a function of the scheduled time. */
  input: AgentInput | ((scheduledAt: Date) => AgentInput);
  /** Called after each run with what `onEvent` returned, or the error it threw. */
  onResult?: (result: ExecutionResult | undefined, error: unknown) => void;
  /**
   * Run every fire in this one session (a standing conversation) instead of a new session each
   * time. A fire that finds the session busy or waiting for an approval reports that error.
   */
  sessionId?: string;
}

/**
 * Wakes an agent up on a schedule. After each run the timer is re-armed from the time the run was
 * scheduled for, not from when it ended: no drift, and the slots a slow run or a sleeping machine
 * overran are skipped rather than fired late one after the other.
 */
export class CronTriggerAdapter implements TriggerAdapter {
  readonly #options: CronTriggerOptions;
  readonly #schedule: CronSchedule | undefined;
  readonly #intervalMs: number | undefined;
  #cancel: (() => void) | undefined;
  #running: Promise<void> | undefined;
  #listening = false;
  #next: Date | undefined;

  constructor(options: CronTriggerOptions) {
    if (typeof options !== 'object' || options === null) {
      throw invalidConfig('CronTriggerAdapter needs options.', "Pass { cron: '*/15 * * * *', input: '...' } or { intervalMs, input }.");
    }
    const hasCron = options.cron !== undefined;
    const hasInterval = options.intervalMs !== undefined;
    if (hasCron === hasInterval) {
      throw invalidConfig('CronTriggerAdapter needs exactly one of `cron` and `intervalMs`.', "Use cron: '0 9 * * MON-FRI' for a schedule, or intervalMs: 60_000 for a fixed period.");
    }
    if (hasInterval && !(Number.isFinite(options.intervalMs) && options.intervalMs! >= 1)) {
      throw invalidConfig(`intervalMs must be a positive number of milliseconds, got ${String(options.intervalMs)}.`, 'Use e.g. intervalMs: 60_000 for once a minute.');
    }
    if (hasInterval && options.timezone !== undefined) {
      throw invalidConfig('timezone only applies to `cron` schedules.', 'Remove timezone, or describe the schedule with `cron`.');
    }
    if (options.input === undefined) {
      throw invalidConfig('CronTriggerAdapter needs `input`: what the agent is sent at each fire.', "Pass input: 'Check the support queue'.");
    }
    this.#options = options;
    this.#schedule = hasCron ? parseCronExpression(options.cron!, options.timezone) : undefined;
    this.#intervalMs = options.intervalMs;
  }

  /** When the next run is due, while listening. */
  get nextRunAt(): Date | undefined {
    return this.#next;
  }

  async listen(agent: TriggerAgent, onEvent: TriggerHandler = defaultHandler(agent)): Promise<void> {
    if (this.#listening) {
      throw new SDKError(ERROR_CODES.LOUSHO_TRIGGER_STATE, 'This CronTriggerAdapter is already listening.', { hint: 'Call stop() first, or create another adapter.' });
    }
    this.#listening = true;
    this.#arm(agent, onEvent, Date.now());
  }

  /** Clears the timer; resolves once a run in progress has finished. */
  async stop(): Promise<void> {
    this.#listening = false;
    this.#cancel?.();
    this.#cancel = undefined;
    this.#next = undefined;
    await this.#running;
  }

  /** The first slot after `from` (a scheduled time) that is still ahead. */
  #nextAfter(from: number): number {
    const now = Date.now();
    if (this.#schedule) return this.#schedule.nextRun(new Date(Math.max(from, now))).getTime();
    const period = this.#intervalMs!;
    const next = from + period;
    if (next > now) return next;
    // Overran: the next slot on the same grid, so the period never drifts.
    return from + (Math.floor((now - from) / period) + 1) * period;
  }

  #arm(agent: TriggerAgent, onEvent: TriggerHandler, from: number): void {
    if (!this.#listening) return;
    const at = this.#nextAfter(from);
    this.#next = new Date(at);
    this.#cancel = timerAt(at, () => {
      this.#cancel = undefined;
      const run = this.#fire(agent, onEvent, new Date(at)).finally(() => {
        this.#running = undefined;
        this.#arm(agent, onEvent, at);
      });
      this.#running = run;
    });
  }

  async #fire(agent: TriggerAgent, onEvent: TriggerHandler, scheduledAt: Date): Promise<void> {
    const { input, onResult, owner } = this.#options;
    let result: ExecutionResult | undefined;
    let error: unknown;
    try {
      const sessionId = await openSession(agent, 'cron', owner, this.#options.sessionId);
      const value = typeof input === 'function' ? input(scheduledAt) : input;
      const returned = await onEvent(value, { trigger: 'cron', sessionId, payload: { scheduledAt } });
      result = isExecutionResult(returned) ? returned : undefined;
    } catch (caught) {
      error = caught;
    }
    if (onResult) {
      try {
        onResult(result, error);
      } catch (caught) {
        (this.#options.logger ?? consoleLogger).error?.('CronTriggerAdapter: onResult threw', { error: String(caught) });
      }
    } else if (error !== undefined) {
      (this.#options.logger ?? consoleLogger).error?.('CronTriggerAdapter: a scheduled run failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
