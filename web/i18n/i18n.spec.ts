import { interpolate, languageName, loadMessages } from './i18n';
import en from './messages/en';

describe('messages', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(interpolate('Switch to {mode} mode', { mode: 'dark' })).toBe('Switch to dark mode');
    expect(interpolate('Hello {name}', {})).toBe('Hello {name}');
  });

  it('gives English for the default and for unknown languages', async () => {
    await expect(loadMessages('en')).resolves.toBe(en);
    await expect(loadMessages('xx')).resolves.toBe(en);
  });

  it('names a language in that language', () => {
    expect(languageName('en')).toBe('English');
    expect(languageName('fr')).toBe('français');
  });
});
