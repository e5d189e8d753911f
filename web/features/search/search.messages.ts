/**
 * English copy of the search page: one part of the page catalogue (web/i18n/messages/pages/en.ts),
 * {name} filled in at run time.
 */
export default {
  'search.title': 'Search',
  'search.titleFor': 'Search: {query}',
  'search.seoDescription': 'Search every level guide, blog post and page: type what you see, an item or a level number.',
  'search.intro': 'Guides, blog posts and pages. Type what you see in the room, an item from your inventory, or a level number to go straight to its guide.',
  'search.pageLandmark': 'Search guides, posts and pages',
  'search.pageLabel': 'Words or a level number',
  'search.showingFor': 'Showing results for',
  'search.youTyped': 'You typed “{typed}”.',
  'search.leftOut': 'Nothing on this site has “{words}”, so it was left out.',
  'search.someWords': 'No result has every word: these have some of them.',
  'search.group.levels': 'Guides',
  'search.group.posts': 'Blog posts',
  'search.group.pages': 'Pages',
  'search.groupCount': '{shown} of {total}',
  'search.allLevels': 'All {total} matching guides',
  'search.allPosts': 'All {total} matching posts',
  'search.levelKicker': 'Level {level}',
  'search.pageKicker': 'Page',
  'search.noneFor': 'Nothing found for “{query}”.',
  'search.noneHint': 'Check the spelling, try fewer words, or type the level number.',
  'search.browseLevels': 'Browse all guides',
  'search.browseBlog': 'Read the blog',
} as const;
