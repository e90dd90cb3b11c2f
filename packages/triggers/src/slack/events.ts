/** The parts of Slack Events API payloads this package reads. */

export interface SlackMessageEvent {
  type: 'message' | 'app_mention';
  channel: string;
  user?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  bot_id?: string;
  subtype?: string;
}

/** A message a person wrote (not a bot's, not an edit, join or deletion), or undefined. */
export function personMessage(body: Record<string, unknown>): SlackMessageEvent | undefined {
  if (body.type !== 'event_callback') return undefined;
  const event = body.event as Partial<SlackMessageEvent> | undefined;
  if (!event || (event.type !== 'message' && event.type !== 'app_mention')) return undefined;
  // Our own replies come back as events too: answering them would loop.
  if (event.bot_id !== undefined || event.subtype !== undefined) return undefined;
  if (typeof event.channel !== 'string' || typeof event.ts !== 'string' || typeof event.text !== 'string') return undefined;
  return event as SlackMessageEvent;
}

/** One thread = one conversation: a top-level message starts a thread at its own `ts`. */
export function threadOf(event: SlackMessageEvent): string {
  return event.thread_ts ?? event.ts;
}

/** Slack retries an event it thinks was not received: remember recent event ids (bounded). */
export class SeenEvents {
  readonly #ids = new Set<string>();
  constructor(readonly limit = 5_000) {}

  /** False if the id was already seen. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.limit) this.#ids.delete(this.#ids.values().next().value!);
    return true;
  }

  forget(id: string): void {
    this.#ids.delete(id);
  }
}
