/** English copy of the offline page and the "new version" prompt (a part of the page catalogue, web/i18n/messages/pages/en.ts). */
export default {
  'offline.seoTitle': 'Reading offline',
  'offline.seoDescription': 'The level guides saved on this device for reading without a connection.',
  'offline.heading': 'Reading offline',
  'offline.intro':
    'Without a connection, every guide you opened on this device, and the next two after it, still opens here with its hints and steps. Videos and the other pages need a connection.',
  'offline.youAreOffline': 'You are offline: this page needs a connection.',
  'offline.notLoaded': 'This page could not be loaded: the connection failed.',
  'offline.tryAgain': 'Try again',
  'offline.saved': 'Guides on this device',
  'offline.loading': 'Looking for saved guides…',
  'offline.none': 'No guide is saved yet. Open a guide while you are online and it is kept here, with the next two.',
  'offline.browse': 'Browse the levels',

  'update.available': 'A new version is available',
  'update.reload': 'Reload',
} as const;
