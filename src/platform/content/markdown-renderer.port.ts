/** Turns trusted-but-checked Markdown into safe HTML (no scripts, handlers or javascript: URLs). */
export abstract class MarkdownRenderer {
  abstract render(markdown: string): string;
  abstract renderInline(markdown: string): string;
  /** The text without markup, for search. */
  abstract toPlainText(markdown: string): string;
}
