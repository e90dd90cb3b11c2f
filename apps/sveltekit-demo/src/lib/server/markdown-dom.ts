import { useMarkdownWindow } from '@lousho/demo-agent/markdown';
import { JSDOM } from 'jsdom';

/**
 * The server renders the transcript too (the page's HTML holds it before hydration), so replies'
 * Markdown is sanitized here as in the browser: DOMPurify needs a DOM, jsdom's window is one.
 * Without it the renderer would show plain text on the server and Markdown after hydration.
 */
export function provideMarkdownDom(): void {
  useMarkdownWindow(new JSDOM('').window as unknown as Window & typeof globalThis);
}
