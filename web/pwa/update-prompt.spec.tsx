import { renderToStaticMarkup } from 'react-dom/server';
import { I18nProvider } from 'web/i18n/i18n';
import en from 'web/i18n/messages/en';
import { UpdatePrompt } from './update-prompt';

const render = (open: boolean) =>
  renderToStaticMarkup(
    <I18nProvider locale="en" messages={en}>
      <UpdatePrompt open={open} onReload={() => undefined} />
    </I18nProvider>,
  );

describe('the "new version" prompt', () => {
  it('says a new version is available, with a Reload button and a close button, inside a polite live region', () => {
    const html = render(true);
    expect(html).toMatch(/^<div role="status"/);
    expect(html).toContain('A new version is available <span aria-hidden="true">·</span>');
    expect(html).toMatch(/<button type="button" class="[^"]*">Reload<\/button>/);
    expect(html).toContain('<button type="button" aria-label="Close"');
  });

  it('is an empty live region until it opens, so that screen readers announce its words', () => {
    const html = render(false);
    expect(html).toMatch(/^<div role="status"[^>]*><\/div>$/);
  });
});
