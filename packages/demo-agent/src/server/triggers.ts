// Node only (the trigger adapters listen on ports): reached through `@lousho/demo-agent/server`, never the root.
import { CronTriggerAdapter, WebhookTriggerAdapter, type TriggerAgent, type TriggerLogger } from '@lousho/build-ai-agent/triggers';

/** What a webhook call runs when its body has no `input` text. */
export const DEFAULT_WEBHOOK_INPUT = 'research the latest launch feedback and email team@example.com about it';
/** What each scheduled run is sent when `DEMO_CRON` is set (a research, then an email that waits for approval). */
export const DEFAULT_CRON_INPUT = 'research the overnight news and email team@example.com about it';

/** The webhook's default port beside the demo server (3000)... */
export const DEMO_SERVER_WEBHOOK_PORT = 8787;
/** ...and beside the SvelteKit demo (3001), so both demos can run at once. */
export const SVELTEKIT_DEMO_WEBHOOK_PORT = 8788;

export interface DemoTriggerSettings {
  host: string;
  /** `DEMO_WEBHOOK_PORT` (default: the demo's own, see above; 0 picks a free port). */
  webhookPort: number;
  /** `DEMO_WEBHOOK_TOKEN`, or a random one made at start and printed. */
  webhookToken: string;
  /** Whether the token was made here (the banner prints it then). */
  tokenGenerated: boolean;
  /** `DEMO_CRON`: a five-field expression; unset, no schedule runs. */
  cron?: string;
  /** `DEMO_CRON_INPUT`: what each scheduled run is sent. */
  cronInput: string;
}

/** Reads the triggers' settings from the environment; a bad value throws with the variable's name. */
export function triggerSettings(env: Record<string, string | undefined>, host: string, defaultPort = DEMO_SERVER_WEBHOOK_PORT): DemoTriggerSettings {
  const portText = env['DEMO_WEBHOOK_PORT']?.trim();
  const webhookPort = portText ? Number(portText) : defaultPort;
  if (!Number.isInteger(webhookPort) || webhookPort < 0 || webhookPort > 65535) {
    throw new Error(`DEMO_WEBHOOK_PORT must be a number from 0 to 65535, not "${portText}".`);
  }
  const token = env['DEMO_WEBHOOK_TOKEN']?.trim();
  const cron = env['DEMO_CRON']?.trim();
  return {
    host,
    webhookPort,
    webhookToken: token || randomToken(),
    tokenGenerated: !token,
    ...(cron ? { cron } : {}),
    cronInput: env['DEMO_CRON_INPUT']?.trim() || DEFAULT_CRON_INPUT,
  };
}

/** 144 random bits, URL-safe (Web Crypto: the same in Node and in SvelteKit's server bundle). */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
}

export interface DemoTriggers {
  /** Where the webhook listens, e.g. `http://127.0.0.1:8787/webhook`. */
  webhookUrl: string;
  /** The schedule's expression, when `DEMO_CRON` turned one on. */
  cron?: string;
  /** Lines for the start banner: how to call the webhook (with the token) and the schedule. */
  banner: string[];
  stop(): Promise<void>;
}

/**
 * Wires real triggers into the demo agent: a webhook (bearer token; every call starts a new session,
 * answered `202` at once) and, when `DEMO_CRON` is set, a schedule. Their runs are sessions of the
 * HTTP handler's principal in the demo's store, so the demos list them and can follow and approve them.
 */
export async function startDemoTriggers(agent: TriggerAgent, settings: DemoTriggerSettings, logger: TriggerLogger = console): Promise<DemoTriggers> {
  const webhook = new WebhookTriggerAdapter({
    host: settings.host,
    port: settings.webhookPort,
    path: '/webhook',
    auth: { type: 'bearer', token: settings.webhookToken },
    respond: 'accepted',
    input: (payload) => {
      const input = (payload as { input?: unknown } | null)?.input;
      return typeof input === 'string' && input.trim() !== '' ? input : DEFAULT_WEBHOOK_INPUT;
    },
    logger,
  });
  await webhook.listen(agent);
  const address = webhook.address!;
  const shownHost = address.host.includes(':') ? `[${address.host}]` : address.host;
  const webhookUrl = `http://${shownHost}:${address.port}/webhook`;

  let cron: CronTriggerAdapter | undefined;
  if (settings.cron) {
    cron = new CronTriggerAdapter({
      cron: settings.cron,
      input: settings.cronInput,
      logger,
      onResult: (_result, error) => {
        if (error) logger.warn(`The scheduled run failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    });
    try {
      await cron.listen(agent);
    } catch (error) {
      await webhook.stop();
      throw error;
    }
  }

  const token = settings.tokenGenerated ? settings.webhookToken : '$DEMO_WEBHOOK_TOKEN';
  const banner = [
    `  Webhook trigger ${webhookUrl} (token${settings.tokenGenerated ? ' made for this run' : ' from DEMO_WEBHOOK_TOKEN'}):`,
    `    curl -X POST ${webhookUrl} -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' -d '{"input":"${DEFAULT_WEBHOOK_INPUT}"}'`,
    cron ? `  Cron trigger    '${settings.cron}', next run ${cron.nextRunAt?.toISOString() ?? 'none'}` : '  Cron trigger    off (DEMO_CRON="*/5 * * * *" turns it on)',
  ];
  return {
    webhookUrl,
    ...(cron ? { cron: settings.cron! } : {}),
    banner,
    async stop() {
      await Promise.all([webhook.stop(), cron?.stop()]);
    },
  };
}

/** What `GET /api/info` says of the triggers: where the webhook listens and the schedule, never the token. */
export function triggerInfo(triggers: Pick<DemoTriggers, 'webhookUrl' | 'cron'>): { webhook: string; cron: string | null } {
  return { webhook: triggers.webhookUrl, cron: triggers.cron ?? null };
}

/** The one line a demo prints when its triggers cannot start (a taken port names the variable that moves it). */
export function triggerStartFailure(error: unknown): string {
  if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') return 'The webhook port is in use: start with DEMO_WEBHOOK_PORT=<another port> (0 picks a free one).';
  return error instanceof Error ? error.message : String(error);
}
