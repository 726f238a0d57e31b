import MarkdownIt from 'markdown-it';

// CommonMark with GitLab's GFM basics (tables, strikethrough, autolinks); raw HTML is escaped, never passed through.
const renderer = new MarkdownIt({ html: false, linkify: true, breaks: false });

/**
 * A description as GitLab's `descriptionHtml` shows it: Markdown rendered to HTML, with any HTML in
 * the source escaped (markdown-it `html: false`; its link validator drops `javascript:` and similar URLs).
 * An empty description renders as the empty string.
 */
export function markdownToHtml(source: string | null | undefined): string {
  if (!source) return '';
  return renderer.render(source).trim();
}
