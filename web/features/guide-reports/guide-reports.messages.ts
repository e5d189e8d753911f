/**
 * English copy of the guide report form: one part of the account catalogue (web/i18n/messages/account/en.ts). Spec
 * copy exact, {name} filled in at run time.
 */
export default {
  'report.seoTitle': 'Report a problem: Level {level} guide',
  'report.kicker': 'Level {level}: {title}',
  'report.title': 'Something wrong with this guide?',
  'report.crumb': 'Report a problem',
  'report.intro': 'Tell us what does not work and we will check the guide. No account needed.',
  'report.kindLegend': 'What is wrong?',
  'report.kindWrongStep': 'A step is wrong',
  'report.kindVideoMismatch': 'The video does not match',
  'report.kindOther': 'Something else',
  'report.messageLabel': 'What happened? (optional)',
  'report.messageHint': 'For example: step 3 says the left door, but on my phone it is the right one.',
  'report.count': '{count}/{max}',
  'report.send': 'Send report',
  'report.sending': 'Sending…',
  'report.noScript': 'Sending a report needs JavaScript. Turn it on and reload this page.',
  'report.thanks': 'Thank you! We will check the guide of level {level}.',
  'report.tooMany': 'You sent several reports just now. Please try again in a few minutes.',
  'report.failed': 'Your report could not be sent. Please try again.',
  'report.back': 'Back to the guide',
} as const;
