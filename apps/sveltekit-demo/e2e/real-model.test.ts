import { freePort, newContext, startProcess, useBrowser, type StartedProcess } from 'e2e/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_DIR, waitForHydration } from './support/sveltekit-demo.js';

const browser = useBrowser();
let app: StartedProcess;
let url: string;

// The app on a real model (a key that is never used: nothing is sent to the model here).
beforeAll(async () => {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), LOUSHO_MODEL: 'openai/gpt-4o-mini', OPENAI_API_KEY: 'sk-e2e-never-used', NODE_ENV: 'production', DEMO_WEBHOOK_PORT: '0' };
  delete env['HOST'];
  delete env['ORIGIN'];
  app = await startProcess({ name: 'The app (real model)', args: ['server.js'], cwd: APP_DIR, env, readyWhen: /running at (http:\/\/127\.0\.0\.1:\d+\/)/ });
  url = app.ready[1]!;
});
afterAll(() => app?.stop());

describe('suggestions with a real model', () => {
  it('offers the offline model’s suggestion chips only where the offline model answers (in the page)', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    await page.goto(url);
    await waitForHydration(page);
    await page.getByTestId('model-notice').filter({ hasText: 'real model' }).waitFor();
    await page.getByRole('region', { name: 'Getting started' }).waitFor();
    expect(await page.locator('.chip').count()).toBe(0);

    await page.getByRole('radio', { name: 'In this page' }).click();
    await page.waitForURL(/\?mode=page$/);
    await page.getByRole('region', { name: 'Getting started' }).locator('.chip').first().waitFor();
    await context.close();
  });
});
