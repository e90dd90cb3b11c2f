import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, sendAndWaitForReply, waitForStatus, waitForTakeOver } from '../page-driver.js';

/** Cities the demo model knows, none inside another's name: each turn asks about its own. */
const CITIES = [
  'Paris', 'London', 'Tokyo', 'Berlin', 'Madrid', 'Rome', 'Lisbon', 'Amsterdam', 'Vienna', 'Prague',
  'Stockholm', 'Oslo', 'Copenhagen', 'Dublin', 'Zurich', 'Istanbul', 'Cairo', 'Nairobi', 'Lagos', 'Dubai',
  'Mumbai', 'Bangkok', 'Singapore', 'Seoul', 'Sydney',
];

export const LONG_CHAT_TURNS = 20;

/** The cities of each turn: one, and two on every fourth turn (two calls in one response: `call_0`, `call_1`). */
export function longChatPlan(): string[][] {
  const plan: string[][] = [];
  let next = 0;
  for (let turn = 0; turn < LONG_CHAT_TURNS; turn++) plan.push(CITIES.slice(next, (next += turn % 4 === 3 ? 2 : 1)));
  return plan;
}

/** Each assistant message's tool cards: their tool, state, and the text of their arguments and result. */
function cardsByReply(page: Page): Promise<{ tool: string; state: string; args: string; result: string }[][]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="message"][data-role="assistant"]')].map((message) =>
      [...message.querySelectorAll<HTMLElement>('[data-testid="tool-card"]')].map((card) => ({
        tool: card.dataset['tool'] ?? '',
        state: card.dataset['state'] ?? '',
        args: card.querySelector('[aria-label="Arguments"]')?.textContent ?? '',
        result: card.querySelector('[data-testid="tool-result"]')?.textContent ?? '',
      })),
    ),
  );
}

/** Each turn's cards hold that turn's own cities, in its arguments and its result, and no other city. */
async function expectOwnCards(page: Page, plan: string[][], turns = plan.length): Promise<void> {
  const replies = await cardsByReply(page);
  expect(replies).toHaveLength(turns);
  replies.forEach((cards, turn) => {
    const own = plan[turn]!;
    expect(cards.map((card) => `${card.tool}:${card.state}`), `turn ${turn + 1}'s cards`).toEqual(own.map(() => 'get_weather:done'));
    cards.forEach((card, i) => {
      const others = CITIES.filter((city) => city !== own[i]);
      for (const [what, text] of [
        ['arguments', card.args],
        ['result', card.result],
      ] as const) {
        expect(text, `turn ${turn + 1}, card ${i + 1}: its ${what}`).toContain(own[i]!);
        expect(
          others.filter((city) => text.includes(city)),
          `turn ${turn + 1}, card ${i + 1}: another turn's city in its ${what}`,
        ).toEqual([]);
      }
    });
  });
}

/**
 * A 20-turn chat on the offline demo model, its call ids numbered per response (`call_0` in every
 * turn: `E2E_CALL_IDS`) and its small context window compacted on the way: every turn's weather
 * card shows that turn's city in its arguments and its result, never another turn's, and none goes
 * missing, live and after a reload.
 */
export function describeLongChat(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('a long chat whose call ids come again (%s)', (mode) => {
    it(`${LONG_CHAT_TURNS} turns with compaction: each turn's tool cards keep their own arguments and results, also after a reload`, async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      const plan = longChatPlan();
      for (const [turn, cities] of plan.entries()) {
        await sendAndWaitForReply(page, `Weather in ${cities.join(' and ')}?`);
        // The newest turn has its card at once, and no earlier card changed.
        await expectOwnCards(page, plan, turn + 1);
      }
      // The window filled: older turns were compacted (pruned or summarized) on the way.
      expect(await page.getByTestId('compaction').count()).toBeGreaterThanOrEqual(1);
      await screenshot(target, page, `long-chat-${mode}`);

      await page.reload();
      await waitForTakeOver(target, page);
      await page.locator('[data-testid="message"][data-role="assistant"]').nth(LONG_CHAT_TURNS - 1).waitFor();
      await waitForStatus(page, 'idle');
      await expectOwnCards(page, plan);
      expect(pageErrors).toEqual([]);
      await close();
    }, 300_000);
  });
}
