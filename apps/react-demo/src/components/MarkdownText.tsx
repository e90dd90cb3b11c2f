import { memo, useMemo } from 'react';
import { renderMarkdown } from '@lousho/demo-agent/markdown';

/**
 * A reply's text as Markdown: sanitized HTML from the demos' shared renderer (raw HTML shows as
 * text, unsafe links and images never reach the page). Memoized on the text, so a message whose
 * text did not change is neither parsed again nor redrawn while another reply streams.
 */
export const MarkdownText = memo(function MarkdownText({ text, streaming, testId = 'text' }: { text: string; streaming: boolean; testId?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className={streaming ? 'markdown is-streaming' : 'markdown'} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
});
