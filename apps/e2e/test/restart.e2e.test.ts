import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalPanel, conversationOf, lastAssistantText, openDemo, screenshot, sendMessage, startDemoServer, toolCard, useBrowser, waitForStatus, type RunningDemoServer } from '../kit/index.js';
import { reactDemo } from './react-demo.js';

// A crash, not a reload: this test runs its own demo server (its own SQLite file in a temporary
// folder), kills it with SIGKILL while the run waits for an approval, and starts a new process on
// the same file and port. Everything the page shows afterwards comes from the database.

const WAIT_MS = 30_000;
const PROMPT = 'email bob@example.com about the launch';

const browser = useBrowser();
let dataDir: string | undefined;
let server: RunningDemoServer | undefined;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'lousho-e2e-restart-'));
});
afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The parts of `GET /api/agent/sessions/:id` this test reads. */
interface StoredSession {
  status: string;
  pendingApproval: unknown;
  messages: { role: string; content?: unknown; toolCalls?: { id: string }[]; toolCallId?: string }[];
}

/** The session the page keeps in sessionStorage (the HTTP client's `lousho:session:<url>` key). */
async function sessionIdOf(page: Page): Promise<string> {
  const id = await page.evaluate(() => {
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i);
      if (key?.startsWith('lousho:session')) return sessionStorage.getItem(key);
    }
    return null;
  });
  if (!id) throw new Error('The page kept no session id in sessionStorage.');
  return id;
}

describe('server restart (http, SQLite)', () => {
  it('after kill -9 and a restart, the reloaded page shows the transcript and the pending approval, and approving completes the run', async () => {
    server = await startDemoServer({ dataDir: dataDir! });
    const { port, url } = server;
    const { page, pageErrors, close } = await openDemo(browser(), reactDemo, 'http', { serverUrl: url });

    await sendMessage(page, PROMPT);
    const panel = approvalPanel(page);
    await panel.waitFor({ timeout: WAIT_MS });
    await waitForStatus(page, 'awaiting-approval', WAIT_MS);
    await toolCard(page, 'send_email', 'awaiting-approval').waitFor({ timeout: WAIT_MS });
    const before = await conversationOf(page);
    const argsBefore = (await panel.getByTestId('approval-args').textContent()) ?? '';
    const sessionId = await sessionIdOf(page);
    expect(before.roles).toEqual(['user', 'assistant']);
    expect(before.cards).toEqual(['send_email:awaiting-approval']);
    expect(argsBefore).toContain('bob@example.com');

    // The crash: no shutdown code runs. Then a new process on the same SQLite file and port.
    const killedBy = await server.kill();
    expect(killedBy).toBe('SIGKILL');
    await expect(fetch(new URL('/api/info', url))).rejects.toThrow();
    server = await startDemoServer({ dataDir: dataDir!, port });
    expect(server.url).toBe(url);

    // Errors from the dead connection belong to the old document; count only those after the reload.
    pageErrors.length = 0;
    await page.reload();
    await panel.waitFor({ timeout: WAIT_MS });
    await waitForStatus(page, 'awaiting-approval', WAIT_MS);
    expect(await sessionIdOf(page)).toBe(sessionId);

    const after = await conversationOf(page);
    expect(after).toEqual(before);
    expect(after.texts[0]).toBe(PROMPT);
    expect(after.texts[1]).toMatch(/email to bob@example\.com/);
    expect(await panel.count()).toBe(1);
    const argsAfter = (await panel.getByTestId('approval-args').textContent()) ?? '';
    expect(argsAfter).toBe(argsBefore);
    expect(argsAfter).toContain('launch');
    await screenshot(reactDemo, page, 'restart-restored-http');

    await panel.getByRole('button', { name: 'Approve' }).click();
    await waitForStatus(page, 'idle', WAIT_MS);
    const card = toolCard(page, 'send_email');
    await toolCard(page, 'send_email', 'done').waitFor({ timeout: WAIT_MS });
    expect(await panel.count()).toBe(0);

    const result = await card.getByTestId('tool-result').innerText();
    const messageId = /msg_\w+/.exec(result)?.[0];
    expect(messageId, `a message id in the tool result: ${result}`).toBeDefined();
    expect(await lastAssistantText(page)).toContain(messageId!);

    // Exactly one of everything: one user message, one email card (sent once), no second approval.
    const final = await conversationOf(page);
    expect(final.roles.filter((role) => role === 'user')).toHaveLength(1);
    expect(final.cards).toEqual(['send_email:done']);
    expect(new Set(final.texts.filter(Boolean)).size).toBe(final.texts.filter(Boolean).length);
    expect(final.texts.join('\n').match(/Message id: msg_\w+/g)).toHaveLength(1);
    await screenshot(reactDemo, page, 'restart-approved-http');

    // The restarted server's own record agrees: the session is finished and nothing waits for a decision.
    const response = await fetch(new URL(`/api/agent/sessions/${encodeURIComponent(sessionId)}`, url));
    expect(response.status).toBe(200);
    const session = (await response.json()) as StoredSession;
    expect(session.status).toBe('idle');
    expect(session.pendingApproval).toBeNull();
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const callIds = session.messages.flatMap((m) => m.toolCalls?.map((call) => call.id) ?? []);
    const resultIds = session.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
    expect(callIds).toHaveLength(1);
    expect(resultIds).toEqual(callIds);
    expect(session.messages.at(-1)?.content).toContain(messageId!);

    expect(pageErrors).toEqual([]);
    await close();
  });
});
