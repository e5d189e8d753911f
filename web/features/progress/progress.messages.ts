/** English copy of /progress (a part of the page catalogue, web/i18n/messages/pages/en.ts). */
export default {
  'myProgress.seoTitle': 'Your progress',
  'myProgress.seoDescription': 'The levels you marked solved or still stuck, kept in this browser.',
  'myProgress.heading': 'Your progress',
  'myProgress.intro':
    'Every guide has "Solved it" and "Still stuck". Your marks are kept in this browser and never sent to us; only an anonymous count of each tap is. Sign in and they are kept in your account too, and follow you to your other devices.',
  'myProgress.inAccount': 'Signed in as {email}: your progress is kept in your account too.',
  'myProgress.loading': 'Loading your progress…',
  'myProgress.empty': 'No progress yet. Open a guide and tap "Solved it" when you are through.',
  'myProgress.browse': 'Browse the levels',
  'myProgress.summary': '{solved} solved · {stuck} still stuck',
  'myProgress.solvedHeading': 'Solved',
  'myProgress.stuckHeading': 'Still stuck',
  'myProgress.export': 'Export as JSON',
  'myProgress.clear': 'Clear all progress',
  'myProgress.clearConfirm': 'Clear every mark in this browser{account}? This cannot be undone.',
  'myProgress.clearAccount': ' and in your account',
  'myProgress.clearYes': 'Yes, clear it',
  'myProgress.clearNo': 'Keep it',
  'myProgress.cleared': 'Your progress is cleared.',
  'myProgress.clearFailed': 'Your progress could not be cleared: {message}',
};
