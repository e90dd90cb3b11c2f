import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { newContext, type Browser } from './chromium.js';
import { DEMO_CALL_IDS_STORAGE_KEY, E2E_CALL_IDS } from './demo-server.js';
import type { DemoMode, DemoTarget } from './demo-target.js';

// Drives the chat the three demos share: the same ids, test ids and data attributes in each.

export interface DemoPage {
  page: Page;
  /** The visitor's own context (cookies, storage); closed by `close()`. */
  context: BrowserContext;
  /** Uncaught errors and console errors of the page (a broken render, a CSP violation). */
  pageErrors: string[];
  close(): Promise<void>;
}

export interface OpenDemoOptions {
  /** Another server than the run's (a test that runs its own). */
  serverUrl?: string;
  /** The visitor's colour scheme (default light). */
  colorScheme?: 'light' | 'dark';
}

/** Records the page's uncaught errors and console errors. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/** Waits until the demo's scripts have taken over the page (after a load or a reload); see `DemoTarget.takenOver`. */
export async function waitForTakeOver(target: DemoTarget, page: Page): Promise<void> {
  await target.takenOver?.(page);
}

/** Opens the demo in `mode` for a new visitor (a new context: no cookies, empty storage). */
export async function openDemo(browser: Browser, target: DemoTarget, mode: DemoMode, options: OpenDemoOptions = {}): Promise<DemoPage> {
  const context = await newContext(browser, options.colorScheme ? { colorScheme: options.colorScheme } : {});
  // The in-page agent's model numbers its calls per response, as the test servers' model does.
  await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [DEMO_CALL_IDS_STORAGE_KEY, E2E_CALL_IDS] as const);
  const page = await context.newPage();
  const pageErrors = collectErrors(page);
  await page.goto(target.url(mode, options.serverUrl));
  await waitForTakeOver(target, page);
  await page.locator('#composer-input').waitFor();
  return { page, context, pageErrors, close: () => context.close() };
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.locator('#composer-input').fill(text);
  await page.locator('#composer-input').press('Enter');
}

/**
 * Sends `text` and waits for the whole reply: one more user message, an assistant message after it,
 * and the status line at `status`. (Waiting for `idle` alone could match the state before the send.)
 */
export async function sendAndWaitForReply(page: Page, text: string, status = 'idle', timeout = 30_000): Promise<void> {
  const users = await page.locator('[data-testid="message"][data-role="user"]').count();
  await sendMessage(page, text);
  await page.waitForFunction(
    ({ users, status }) => {
      const messages = [...document.querySelectorAll<HTMLElement>('[data-testid="message"]')];
      const userCount = messages.filter((m) => m.dataset['role'] === 'user').length;
      const shown = document.querySelector<HTMLElement>('[data-testid="status"]')?.dataset['status'];
      return userCount === users + 1 && messages[messages.length - 1]?.dataset['role'] === 'assistant' && shown === status;
    },
    { users, status },
    { timeout },
  );
}

/** Waits until the status line shows `status` (the client's `status` value). */
export async function waitForStatus(page: Page, status: string, timeout = 30_000): Promise<void> {
  await page.locator(`[data-testid="status"][data-status="${status}"]`).waitFor({ timeout });
}

/** The text of the latest assistant message's text parts. */
export async function lastAssistantText(page: Page): Promise<string> {
  const texts = await page.locator('[data-testid="message"][data-role="assistant"]').last().locator('[data-testid="text"]').allTextContents();
  return texts.join('\n');
}

/** The card of a tool call, optionally only while it is in `state` (`running`, `done`, `cancelled`, ...). */
export function toolCard(page: Page, tool: string, state?: string): Locator {
  const stateSelector = state === undefined ? '' : `[data-state="${state}"]`;
  return page.locator(`[data-testid="tool-card"][data-tool="${tool}"]${stateSelector}`);
}

export const approvalPanel = (page: Page): Locator => page.getByTestId('approval-panel');

/** What the page shows of the conversation: each message's role and text, each tool card's tool and state. */
export async function conversationOf(page: Page): Promise<{ roles: string[]; texts: string[]; cards: string[] }> {
  return page.evaluate(() => {
    const messages = [...document.querySelectorAll<HTMLElement>('[data-testid="message"]')];
    return {
      roles: messages.map((m) => m.dataset['role'] ?? ''),
      texts: messages.map((m) => [...m.querySelectorAll('[data-testid="text"]')].map((t) => t.textContent ?? '').join('\n')),
      cards: [...document.querySelectorAll<HTMLElement>('[data-testid="tool-card"]')].map((c) => `${c.dataset['tool']}:${c.dataset['state']}`),
    };
  });
}
export const userMessages = (page: Page): Locator => page.locator('[data-testid="message"][data-role="user"]');

/**
 * The chat most reload tests start from: a weather answer, then an email waiting for approval.
 * Returns the weather answer and how many messages the page shows.
 */
export async function chatAwaitingApproval(page: Page): Promise<{ weatherAnswer: string; messageCount: number }> {
  await sendAndWaitForReply(page, "What's the weather in Paris?");
  await toolCard(page, 'get_weather', 'done').waitFor();
  const weatherAnswer = await lastAssistantText(page);
  expect(weatherAnswer).toContain('Paris');
  await sendMessage(page, 'email bob@example.com about the launch');
  await approvalPanel(page).waitFor();
  await waitForStatus(page, 'awaiting-approval');
  return { weatherAnswer, messageCount: await page.getByTestId('message').count() };
}

/** Saves a screenshot into the demo's screenshot folder and prints where. */
export async function screenshot(target: DemoTarget, page: Page, name: string): Promise<string> {
  mkdirSync(target.screenshotsDir, { recursive: true });
  const path = join(target.screenshotsDir, `${name}.png`);
  await page.screenshot({ path });
  console.log(`[${target.label}] screenshot: ${path}`);
  return path;
}
