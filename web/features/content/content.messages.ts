/**
 * English copy of the content pages, download, media, explore and the blog: one part of the page catalogue (web/i18n/messages/pages/en.ts). Spec
 * copy exact, {name} filled in at run time.
 */
export default {
  'content.updated': 'Last updated {date}',

  'download.title': 'Download {game}',
  'download.seoDescription': 'Where to get {game} for iPhone, iPad and Android.',
  'download.intro': 'Free on phones and tablets. Rated 4.7, over 10 million downloads, age 12+.',
  'download.appStore': 'Download on the App Store',
  'download.playStore': 'Get it on Google Play',
  'download.findOnAppStore': 'iPhone and iPad: open the App Store and search for “{game}”.',
  'download.findOnPlayStore': 'Android: open Google Play and search for “{game}”.',
  'download.notTheGame': 'This guide is not the game: the links take you to the official store pages.',

  'media.title': 'In the media',
  'media.seoDescription': 'Articles, videos and podcasts that mention the guides.',
  'media.empty': 'No media coverage yet.',

  'explore.title': 'Explore',
  'explore.seoDescription': 'Popular level guides, blog categories and the archive.',
  'explore.popular': 'Popular guides',
  'explore.categories': 'Categories',
  'explore.archive': 'Archive',
  'explore.moreCategories': 'The {shown} most used of {count} categories; every post links its own.',
  'explore.olderPosts': 'Older posts',

  'blog.seoDescription': 'News about the guides, and tips for escape-puzzle players.',
  'blog.latest': 'Latest Posts',
  'blog.tagged': 'Posts tagged #{tag}',
  'blog.month': 'Posts from {month}',
  'blog.feed': 'Feed',
  'blog.feedTitle': '{site} blog',
  'blog.search': 'Search the blog',
} as const;
