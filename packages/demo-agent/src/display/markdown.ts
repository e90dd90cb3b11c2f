import DOMPurify, { type WindowLike } from 'dompurify';
import { Marked, type Tokens } from 'marked';

/**
 * Model replies as Markdown, for the three demos (the same HTML in React, Vue and Svelte). Model
 * text is hostile, so it is rendered safe by construction and then sanitized again:
 * - raw HTML in the Markdown is shown as text, never parsed as markup;
 * - links keep only http(s) and mailto addresses (a `javascript:` or `data:` link is its text);
 * - images are never loaded (a tracking pixel, or a URL that carries the chat away): an http(s)
 *   image becomes a link, anything else its alt text;
 * - DOMPurify then keeps only the tags and attributes this renderer writes. Where no DOM is at hand
 *   (a server without `useMarkdownWindow`), the text is shown plain: it never ships unsanitized.
 */

/** Longer texts are shown plain: the parser's time and memory stay bounded whatever the model sends. */
export const MARKDOWN_MAX_LENGTH = 100_000;

const ALLOWED_TAGS = ['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td'];
const ALLOWED_ATTR = ['href', 'title', 'start', 'align'];
const SAFE_URL = /^(?:https?:|mailto:)/i;

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** The address when it is an absolute http(s) or mailto URL, else undefined. */
function safeUrl(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const linkTo = (href: string, title: string | null | undefined, inner: string): string =>
  `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;

const markdown = new Marked({
  gfm: true,
  // Chat replies break lines where the model does.
  breaks: true,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      const text = escapeHtml(token.text);
      return 'block' in token && token.block ? `<p>${text.trim().replace(/\n/g, '<br>')}</p>\n` : text;
    },
    link({ href, title, tokens }: Tokens.Link): string {
      const inner = this.parser.parseInline(tokens);
      const url = safeUrl(href);
      return url ? linkTo(url, title, inner) : inner;
    },
    image({ href, title, text }: Tokens.Image): string {
      const url = safeUrl(href);
      const label = escapeHtml(text || 'image');
      return url && !url.startsWith('mailto:') ? linkTo(url, title, `Image: ${label}`) : label;
    },
    heading({ tokens, depth }: Tokens.Heading): string {
      // Under the page's own headings (h1 for the page, h2 for its panels).
      const level = Math.min(depth + 2, 6);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? '☑ ' : '☐ ';
    },
  },
});

type Purifier = ReturnType<typeof DOMPurify>;

/** Links open in a new tab, without giving that page a hold on this one or the model's links any credit. */
function withLinkAttributes(purifier: Purifier): Purifier {
  // Without a DOM, DOMPurify is a stub (no hooks, no sanitize): `renderMarkdown` then shows text only.
  if (!purifier.isSupported) return purifier;
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  });
  return purifier;
}

let purifier: Purifier = withLinkAttributes(DOMPurify);

/** Where there is no `window` (a server rendering the page), the DOM DOMPurify works in (e.g. jsdom's). */
export function useMarkdownWindow(window: WindowLike): void {
  purifier = withLinkAttributes(DOMPurify(window));
}

/** The text as escaped paragraphs, line breaks kept: what is shown when Markdown cannot be rendered safely. */
function plainHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/** Sanitized HTML of a Markdown text: safe to give to innerHTML (`v-html`, `{@html}`, `dangerouslySetInnerHTML`). */
export function renderMarkdown(text: string): string {
  if (!purifier.isSupported || text.length > MARKDOWN_MAX_LENGTH) return plainHtml(text);
  const html = markdown.parse(text, { async: false });
  return purifier.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP: SAFE_URL, RETURN_TRUSTED_TYPE: false }).trim();
}
