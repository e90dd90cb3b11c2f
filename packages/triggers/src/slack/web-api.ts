import { ERROR_CODES, SDKError } from '@lousho/core';

export interface SlackWebApiOptions {
  /** A bot token (`xoxb-...`) with `chat:write`. */
  token: string;
  /** Default `https://slack.com/api`. */
  apiUrl?: string;
  fetch?: typeof fetch;
  /** How many times a rate-limited call (HTTP 429) is retried after its `Retry-After`. Default 3. */
  maxRetries?: number;
}

/** A Web API call that Slack answered with `ok: false` (its `error` is Slack's code, e.g. `channel_not_found`). */
export class SlackApiError extends SDKError {
  constructor(
    readonly method: string,
    readonly slackError: string,
  ) {
    super(ERROR_CODES.LOUSHO_SLACK_API_ERROR, `Slack's ${method} failed: ${slackError}.`, { hint: 'Check the bot token, its scopes (chat:write) and that the bot is in the channel.' });
    this.name = 'SlackApiError';
  }
}

/** The Web API calls the Slack channel makes: JSON POSTs with the bot token, retried on 429. */
export class SlackWebApi {
  readonly #token: string;
  readonly #apiUrl: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;

  constructor(options: SlackWebApiOptions) {
    this.#token = options.token;
    this.#apiUrl = (options.apiUrl ?? 'https://slack.com/api').replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#maxRetries = options.maxRetries ?? 3;
  }

  async call(method: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.#fetch(`${this.#apiUrl}/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.#token}`, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(args),
      });
      if (response.status === 429 && attempt < this.#maxRetries) {
        await response.body?.cancel();
        const seconds = Number(response.headers.get('retry-after'));
        await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(seconds) && seconds >= 0 ? seconds : 1) * 1000));
        continue;
      }
      if (!response.ok) throw new SlackApiError(method, `HTTP ${response.status}`);
      const body = (await response.json()) as Record<string, unknown>;
      if (body.ok !== true) throw new SlackApiError(method, typeof body.error === 'string' ? body.error : 'unknown_error');
      return body;
    }
  }
}
