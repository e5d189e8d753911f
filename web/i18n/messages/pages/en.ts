import content from 'web/features/content/content.messages';
import levels from 'web/features/levels/levels.messages';
import offline from 'web/features/offline/offline.messages';
import progress from 'web/features/progress/progress.messages';
import search from 'web/features/search/search.messages';

/**
 * The English copy of the public pages other than the level guide (home, levels lists, content
 * pages, download, media, explore, blog, search, progress, offline): a catalogue part of its own, so
 * it loads with those pages rather than with the entry every page downloads (see
 * web/i18n/page-messages.ts). The account, payment and image tool pages' copy is a part apart
 * (messages/account/en.ts). Same rules as messages/en.ts: grouped by page, spec copy exact,
 * {name} filled in at run time.
 *
 * Each feature keeps its pages' copy in web/features/<feature>/<feature>.messages.ts; this file
 * joins them, with the copy of the shared components, into the one catalogue part.
 */
const pages = {
  ...levels,
  // Shared components: page links, post lists, the account pages' loading states.
  'pagination.label': 'Pages',
  'pagination.page': 'Page {page}',

  'posts.noneFound': 'No articles found',

  'account.loading': 'Loading…',
  'account.loadFailed': 'This could not be loaded.',
  'account.retry': 'Try again',
  'paging.previous': 'Previous',
  'paging.next': 'Next',
  'paging.page': 'Page {page} of {pages}',
  ...content,
  ...progress,
  ...search,
  ...offline,
} as const;

export default pages;
