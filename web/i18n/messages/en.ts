/**
 * The English messages: the fallback of every language and the list of keys. Keys are grouped by
 * where they appear; values are the exact copy of the product spec where it gives one. {name}
 * marks a value filled in at run time.
 */
const en = {
  'layout.skipToContent': 'Skip to content',

  'header.menu': 'Main',
  'header.mobileMenu': 'Mobile',
  'header.openMenu': 'Open menu',
  'header.closeMenu': 'Close menu',
  'header.language': 'Language',

  'menu.home': 'Home',
  'menu.levels': 'Levels',
  'menu.download': 'Download',
  'menu.faq': 'FAQ',
  'menu.media': 'Media',
  'menu.blog': 'Blog',

  'legal.terms': 'Terms of Service',
  'legal.privacy': 'Privacy Policy',
  'legal.refund': 'Refund Policy',

  'footer.about': 'Walkthroughs, hints, text guides and video solutions for every level of {game}, written by players for players.',
  'footer.levels': 'Levels',
  'footer.support': 'Support',
  'footer.legal': 'Legal',
  'footer.levelLink': 'Level {level}',
  'footer.allLevels': 'All levels',
  'footer.social': 'Contact and social links',
  'footer.email': 'Email',
  'footer.x': 'X',
  'footer.discord': 'Discord',
  'footer.github': 'GitHub',
  'footer.coffee': 'Buy us a coffee',
  'footer.twitch': 'Twitch',
  'footer.disclaimer':
    '{site} is an unofficial, fan-made guide. It is not affiliated with, endorsed by or sponsored by the makers of {game}. Game names, images and trademarks belong to their respective owners.',
  'footer.copyright': '© {year} {site}. All rights reserved.',

  'theme.switchTo': 'Switch to {mode} mode',
  'theme.switch': 'Switch colour mode',
  'theme.light': 'light',
  'theme.dark': 'dark',

  'error.notFound': 'This page could not be found',
  'error.other': 'An error occurred',
  'error.notFoundTitle': 'Page not found',
  'error.otherTitle': 'Error',
  'error.backHome': 'Back Home',
} as const;

export default en;
