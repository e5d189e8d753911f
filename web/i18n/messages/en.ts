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
  'menu.pricing': 'Pricing',
  'menu.imageTool': 'Image tool',

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

  'search.label': 'Level number',
  'search.headerLandmark': 'Level search',
  'search.heroLandmark': 'Find your level',
  'search.placeholder': 'Level #',
  'search.placeholderLarge': 'Level number, e.g. 27',
  'search.submit': 'Search',
  'search.empty': 'Please enter a level number',
  'search.invalid': 'Invalid level number',

  'breadcrumbs.label': 'Breadcrumb',

  'loading.label': 'Loading the page',

  'toast.close': 'Close',

  'api.fetchException': 'fetch exception: {message}',
  'api.requestFailed': 'Request failed with status {status}',

  'difficulty.easy': 'Easy',
  'difficulty.medium': 'Medium',
  'difficulty.hard': 'Hard',

  'level.number': 'Level {level}',
  'level.heading': 'Level {level}: {title}',
  'level.seoTitle': 'Level {level}: {title} - {game} Walkthrough',
  'level.seoDescription': '{game} level {level} ({title}): hints first, then a step-by-step solution and a video walkthrough.',
  'level.videoDescription': '{game} level {level} walkthrough: {title}',
  'level.step': 'Step {number}',
  'level.kicker': '{game} walkthrough',
  'level.referenceTime': 'Reference time',
  'level.unlocksAfter': 'Unlocks after level {level}',
  'level.tips': 'Tips',
  'level.solution': 'Step-by-step solution',
  'level.showSteps': 'Show {count} steps',
  'level.hideSteps': 'Hide',
  'level.watchAt': 'Watch at {time}',
  'level.video': 'Video walkthrough',
  'level.jumpToVideo': 'Jump to the video',
  'level.checked': 'Checked on game version {version}, last verified {date}.',
  'level.missingSeoTitle': 'Level {level} - {game} Walkthrough',
  'level.missingSeoDescription': 'The guide for {game} level {level} is not written yet.',
  'level.missingTitle': 'This level is not covered yet',
  'level.missingText': 'No one has written the guide for level {level} yet. Ask for it and we will know which guides players need most.',
  'level.nearest': 'Nearest levels with a guide',
  'level.otherLevels': 'Other levels',
  'level.previous': 'Previous',
  'level.next': 'Next',

  'hints.title': 'Hints',
  'hints.revealed': '{revealed} of {total} revealed',
  'hints.hint': 'Hint {number}',
  'hints.showFirst': 'Show the first hint',
  'hints.showNext': 'Show hint {number} of {total}',
  'hints.last': 'That was the last hint. Still stuck? Open the step-by-step guide below.',

  'video.sampleTitle': 'Sample walkthrough',
  'video.sampleText': 'This level belongs to the demo content pack, so no real video exists. Real guides link a YouTube walkthrough here.',
  'video.sampleTextAt':
    'This level belongs to the demo content pack, so no real video exists (this step is at {time}). Real guides link a YouTube walkthrough here.',
  'video.play': 'Play the walkthrough video',

  'feedback.question': 'Was this guide helpful?',
  'feedback.yes': 'Yes',
  'feedback.no': 'No',
  'feedback.reasonLegend': 'What went wrong? (optional)',
  'feedback.reasonUnclearStep': 'A step is unclear',
  'feedback.reasonDifferentVersion': 'Different on my version',
  'feedback.reasonWrong': 'The solution is wrong',
  'feedback.send': 'Send',
  'feedback.thanks': 'Thanks for your feedback!',
  'feedback.sendFailed': 'Your answer could not be sent. Please try again.',
  'feedback.reportProblem': 'Something wrong with this guide?',

  'request.button': 'Request this guide',
  'request.done': 'Requested: we will write this guide soon.',
  'request.doneWithOne': 'Requested: you and {others} other player want this guide.',
  'request.doneWithOthers': 'Requested: you and {others} other players want this guide.',
  'request.tooMany': 'Too many requests, please try again in a minute.',
  'request.failed': 'Your request could not be sent. Please try again.',

  'account.signIn': 'Sign in',
  'account.menu': 'Account',
  'account.signOut': 'Sign out',
  'account.signOutSuccess': 'Sign out success',
  'account.signOutFailed': 'Sign out failed: {errors}',
  'account.close': 'Close',
  'account.billing': 'Billing',
  'account.usage': 'Usage',
  'account.admin': 'Admin',
  'account.balanceLabel': 'Your balance: {credits}',

  'credits.one': '{count} credit',
  'credits.other': '{count} credits',

  'lowCredit.chargeTitle': "You don't have enough credit!",
  'lowCredit.chargeText': 'You have {credits} left. Buy a credit pack to keep going.',
  'lowCredit.charge': 'Charge',
  'lowCredit.donateTitle': "You don't have enough credits",
  'lowCredit.donateText': 'Support the guides with a donation and get {count} extra credits for every $1 donated.',
  'lowCredit.donate': 'Donate',
} as const;

export default en;
