import { describe, expect, it } from 'vitest';
import type { Browser } from '../chromium.js';
import type { DemoTarget } from '../demo-target.js';
import { openDemo, screenshot, userMessages, waitForStatus, waitForTakeOver } from '../page-driver.js';

/** A real 96×64 PNG (a checkerboard), so the browser decodes and shows the thumbnail. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAGAAAABACAIAAABqVuVZAAAAhUlEQVR42u3asQ0AIAgEQKazdf/OxjiGzEApXvL1J1z5IebYpaxzS3m9PwABAgQIECBAgAABAgQIECBAgJoB/XZwtR8QIECAAAECBAgQIECAAAECBKgbkMHMoggIECBAgAABAgQIECBAgAAB8h9kMLMoAgIECBAgQIAAAQIECBAgQIDaAiXFrQL+q/Eu7gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Attachments: a picked image and a text file upload at once, wait in the composer, go with the
 * message; the transcript shows the image's thumbnail and the file's chip, and over HTTP again
 * after a reload (read from the server). A file the server refuses says why and is not attached.
 */
export function describeAttachments(target: DemoTarget, browser: () => Browser): void {
  describe.each(target.modes)('attachments (%s)', (mode) => {
    it('shows an uploaded image as a thumbnail and a file as a chip, sent with the message (and after a reload over HTTP)', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await page.getByTestId('file-input').setInputFiles([
        { name: 'pixels.png', mimeType: 'image/png', buffer: PNG },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Buy milk.\n') },
      ]);
      const waiting = page.getByTestId('composer-files');
      await waiting.getByText('pixels.png · 190 B').waitFor();
      await waiting.getByText('notes.txt · 10 B').waitFor();
      await page.locator('#composer-input').fill('What is in these?');
      await page.locator('#composer-input').press('Enter');
      await page.locator('[data-testid="message"][data-role="assistant"]').last().waitFor();
      await waitForStatus(page, 'idle');
      expect(await page.getByTestId('error').count()).toBe(0);

      const sent = userMessages(page).last();
      const thumb = sent.locator('img.attachment-thumb');
      await thumb.waitFor();
      await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 96, await thumb.elementHandle());
      expect(await sent.getByTestId('attachment').last().textContent()).toBe('notes.txt · 10 B');
      expect(await sent.getByTestId('text').textContent()).toBe('What is in these?');
      await screenshot(target, page, `attachments-${mode}`);

      if (mode === 'http') {
        await page.reload();
        await waitForTakeOver(target, page);
        const again = userMessages(page).last();
        const reloaded = again.locator('img.attachment-thumb');
        await reloaded.waitFor();
        expect(await reloaded.getAttribute('src')).toMatch(/\/sessions\/[^/]+\/files\/f_[0-9a-f]{32}$/);
        await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 96, await reloaded.elementHandle());
        expect(await again.getByTestId('attachment').last().textContent()).toBe('notes.txt · 10 B');
        await screenshot(target, page, 'attachments-reloaded-http');
      }
      expect(pageErrors).toEqual([]);
      await close();
    });

    it('says why a refused file is not attached (an image whose bytes are not an image)', async () => {
      const { page, pageErrors, close } = await openDemo(browser(), target, mode);
      await page.getByTestId('file-input').setInputFiles([{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a png at all') }]);
      await page.getByTestId('error').waitFor();
      expect(await page.getByTestId('error-message').textContent()).toContain("The file's bytes are not image/png");
      expect(await page.getByTestId('composer-files').count()).toBe(0);
      // The 415 is an answer the page shows, not a page error; the console logs the failed request only.
      expect(pageErrors.filter((error) => !/415|Failed to load resource/.test(error))).toEqual([]);
      await close();
    });
  });
}
