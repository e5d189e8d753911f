import { Injectable } from '@nestjs/common';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { MarkdownRenderer } from './markdown-renderer.port';

/** What guide HTML may contain after sanitising: text formatting and links, nothing that runs. */
const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'strong', 'em', 'b', 'i', 'code', 'kbd', 'br', 'ul', 'ol', 'li', 'a', 'blockquote', 'h2', 'h3', 'h4'],
  allowedAttributes: { a: ['href', 'title', 'rel'] },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener' }) },
  disallowedTagsMode: 'discard',
};

/** markdown-it with raw HTML off, then sanitize-html as a second wall even though content is trusted. */
@Injectable()
export class MarkdownItRenderer extends MarkdownRenderer {
  private readonly md = new MarkdownIt({ html: false, linkify: false, typographer: true });

  render(markdown: string): string {
    return sanitizeHtml(this.md.render(markdown), ALLOWED).trim();
  }

  renderInline(markdown: string): string {
    return sanitizeHtml(this.md.renderInline(markdown), ALLOWED).trim();
  }

  toPlainText(markdown: string): string {
    return sanitizeHtml(this.md.render(markdown), { allowedTags: [], allowedAttributes: {} })
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, ' ')
      .trim();
  }
}
