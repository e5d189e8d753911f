import { escapeMarkup } from './escape-markup';

export interface FeedEntry {
  id: string;
  title: string;
  link: string;
  updated: string;
  summary: string;
  html?: string;
}

export interface Feed {
  id: string;
  title: string;
  self: string;
  alternate: string;
  updated: string;
  entries: FeedEntry[];
}

/** An Atom 1.0 document (the blog's and the guides' feeds); every text is escaped. */
export function atomFeed(feed: Feed): string {
  const entries = feed.entries.map(
    (e) =>
      `<entry><id>${escapeMarkup(e.id)}</id><title>${escapeMarkup(e.title)}</title><link href="${escapeMarkup(e.link)}"/><updated>${e.updated}</updated>` +
      `<summary>${escapeMarkup(e.summary)}</summary>${e.html ? `<content type="html">${escapeMarkup(e.html)}</content>` : ''}</entry>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">' +
    `<id>${escapeMarkup(feed.id)}</id><title>${escapeMarkup(feed.title)}</title><updated>${feed.updated}</updated>` +
    `<link rel="self" href="${escapeMarkup(feed.self)}"/><link rel="alternate" href="${escapeMarkup(feed.alternate)}"/>` +
    entries.join('') +
    '</feed>\n'
  );
}
