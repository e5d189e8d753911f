import { escapeMarkup } from './escape-markup';

describe('escapeMarkup', () => {
  it('escapes the five characters that can end text or an attribute in HTML and XML', () => {
    expect(escapeMarkup(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
  });
});
