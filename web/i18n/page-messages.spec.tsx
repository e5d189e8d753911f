import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { Suspense } from 'react';
import { useAccountI18n } from './account-messages';
import account from './messages/account/en';
import en from './messages/en';
import pages from './messages/pages/en';
import { cataloguePart } from './page-messages';

describe('catalogue parts', () => {
  it('gives every key to one part only: the entry, the public pages or the account pages', () => {
    const parts = { en: Object.keys(en), pages: Object.keys(pages), account: Object.keys(account) };
    const seen = new Map<string, string[]>();
    for (const [part, keys] of Object.entries(parts)) for (const key of keys) seen.set(key, [...(seen.get(key) ?? []), part]);
    expect([...seen].filter(([, inParts]) => inParts.length > 1)).toEqual([]);
  });

  it("answers, on an account page, the keys of all three parts in English", () => {
    function Page() {
      const { t } = useAccountI18n();
      return <p>{[t('menu.levels'), t('pagination.page', { page: 2 }), t('pricing.title')].join(' | ')}</p>;
    }
    expect(renderToStaticMarkup(<Page />)).toBe(`<p>${[en['menu.levels'], 'Page 2', account['pricing.title']].join(' | ')}</p>`);
  });

  it("waits for another language's part, shows its words, and English where it lacks a key", async () => {
    let loads = 0;
    const usePart = cataloguePart({ 'a.one': 'One', 'a.two': 'Two {n}' }, {
      fr: async () => {
        loads++;
        return { default: { 'a.one': 'Un' } };
      },
    });
    const base = (key: 'b.other') => `base:${key}`;
    function Words() {
      const t = usePart('fr', base);
      return <p>{[t('a.one'), t('a.two', { n: 2 }), t('b.other')].join(' | ')}</p>;
    }
    const render = async () => {
      const { prelude } = await prerenderToNodeStream(
        <Suspense fallback="loading">
          <Words />
          <Words />
        </Suspense>,
      );
      let html = '';
      for await (const chunk of prelude) html += String(chunk);
      return html;
    };
    expect((await render()).replace(/<!--\/?\$-->/g, '')).toBe('<p>Un | Two 2 | base:b.other</p><p>Un | Two 2 | base:b.other</p>');
    await render();
    expect(loads).toBe(1);
  });
});
