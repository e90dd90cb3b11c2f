import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MARKDOWN_MAX_LENGTH, renderMarkdown, useMarkdownWindow } from '../src/display/markdown.js';

const { window } = new JSDOM('');
beforeAll(() => useMarkdownWindow(window as unknown as Window & typeof globalThis));

/** The rendered HTML as a fragment, to ask what elements and attributes it holds. */
function fragment(html: string): DocumentFragment {
  const template = window.document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

/** Every element's tag and its attributes (name=value), in document order. */
function elements(html: string): string[] {
  return [...fragment(html).querySelectorAll('*')].map((el) => [el.tagName.toLowerCase(), ...[...el.attributes].map((a) => `${a.name}=${a.value}`)].join(' '));
}

const textOf = (html: string): string => fragment(html).textContent ?? '';

describe('renderMarkdown', () => {
  it('renders what a chat reply uses: emphasis, code, lists, line breaks, links', () => {
    const html = renderMarkdown('**Bold** and _em_ and `code`\nnext line\n\n- one\n- two\n\n1. first\n\n```\nx < 1\n```\n\n[docs](https://example.com/a?b=1)');
    expect(elements(html)).toEqual([
      'p',
      'strong',
      'em',
      'code',
      'br',
      'ul',
      'li',
      'li',
      'ol',
      'li',
      'pre',
      'code',
      'p',
      'a href=https://example.com/a?b=1 target=_blank rel=noopener noreferrer nofollow',
    ]);
    expect(textOf(html)).toContain('x < 1');
  });

  it('shows raw HTML as text: block, inline, and inside a link', () => {
    for (const payload of ['<img src=x onerror="window.__xss=1">', 'hi <b onmouseover=alert(1)>there</b>', '<script>alert(1)</script>', '[<img src=x onerror=alert(1)>](https://example.com)', '<details open ontoggle=alert(1)>']) {
      const html = renderMarkdown(payload);
      expect(elements(html).filter((el) => !/^(p|a href=https:\/\/example\.com\/ target=_blank rel=noopener noreferrer nofollow)$/.test(el)), payload).toEqual([]);
    }
    expect(textOf(renderMarkdown('<img src=x onerror="window.__xss=1">'))).toBe('<img src=x onerror="window.__xss=1">');
  });

  it('keeps only http(s) and mailto links; javascript:, data:, vbscript: and relative ones become their text', () => {
    const payloads = ['[click](javascript:alert(1))', '[click](JaVaScRiPt:alert(1))', '[click](java&#115;cript:alert(1))', '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)', '[click](vbscript:msgbox(1))', '[click](/relative)', '<javascript:alert(1)>', '[click][ref]\n\n[ref]: javascript:alert(1)'];
    for (const payload of payloads) {
      const html = renderMarkdown(payload);
      expect(html, payload).not.toMatch(/<a\b/);
      expect(textOf(html), payload).toContain(payload.startsWith('<') ? 'javascript:alert(1)' : 'click');
    }
    expect(elements(renderMarkdown('<https://example.com/x> and www.example.org and mail@example.com'))).toEqual([
      'p',
      'a href=https://example.com/x target=_blank rel=noopener noreferrer nofollow',
      'a href=http://www.example.org/ target=_blank rel=noopener noreferrer nofollow',
      'a href=mailto:mail@example.com target=_blank rel=noopener noreferrer nofollow',
    ]);
  });

  it('never loads an image: an http(s) one becomes a link, a data: or script one its alt text', () => {
    expect(elements(renderMarkdown('![chart](https://example.com/c.png)'))).toEqual(['p', 'a href=https://example.com/c.png target=_blank rel=noopener noreferrer nofollow']);
    for (const payload of ['![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)', '![x" onerror="alert(1)](x)', '![x](javascript:alert(1))']) {
      expect(elements(renderMarkdown(payload)), payload).toEqual(['p']);
    }
  });

  it('puts model headings under the page’s own (h3 and below)', () => {
    expect(elements(renderMarkdown('# Title\n\n## Part\n\n#### Deep'))).toEqual(['h3', 'h4', 'h6']);
  });

  it('whatever the text, the output holds only the renderer’s tags, no event handler and no unsafe address', () => {
    const allowed = new Set(['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);
    const pieces = fc.constantFrom('<img src=x onerror=alert(1)>', '<a href="javascript:alert(1)">', '[a](', 'javascript:alert(1)', ')', '![b](', 'data:text/html,<script>', '<svg onload=alert(1)>', '**', '`', '\n', '\n\n', '> ', '- ', '<', '>', '"', "'", 'https://x.test', ' ', 'text', '<style>', '<iframe src=//x>', '| a |\n|---|\n| b |');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join('')), (text) => {
        for (const el of fragment(renderMarkdown(text)).querySelectorAll('*')) {
          expect(allowed.has(el.tagName.toLowerCase()), el.outerHTML).toBe(true);
          for (const attr of el.attributes) {
            expect(attr.name, el.outerHTML).not.toMatch(/^on/i);
            if (attr.name === 'href') expect(attr.value, el.outerHTML).toMatch(/^(https?|mailto):/);
          }
        }
      }),
      { numRuns: 300 },
    );
    // Each run parses and sanitizes in jsdom: a few seconds on a busy machine.
  }, 30_000);

  it('shows a text over the length bound as plain paragraphs, escaped', () => {
    const long = `**not bold** <b>x</b>\n${'a'.repeat(MARKDOWN_MAX_LENGTH)}`;
    const html = renderMarkdown(long);
    expect(elements(html)).toEqual(['p', 'br']);
    expect(textOf(html)).toBe(long.replace('\n', ''));
  });

  it('without a DOM to sanitize in (a server that gave none), shows the text plain and escaped', async () => {
    vi.resetModules();
    const fresh = await import('../src/display/markdown.js');
    expect(fresh.renderMarkdown('**x** <img src=x onerror=alert(1)>\n[a](javascript:alert(1))')).toBe('<p>**x** &lt;img src=x onerror=alert(1)&gt;<br>[a](javascript:alert(1))</p>');
  });
});
