import { Breadcrumbs } from 'web/components/level-bits';
import { LevelGrid } from 'web/components/level-grid';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, useLoaderData } from 'web/lib/router/router';
import type loader from 'web/features/levels/hardest.loader';

/** /levels/hardest: where players get stuck longest, as cards linking to each guide. */
export default function HardestLevelsPage() {
  const { levels, total } = useLoaderData<typeof loader>();
  const { gameName } = useSiteConfig();
  const { t } = usePageI18n();
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('hardest.seoTitle', { game: gameName })} description={t('hardest.seoDescription', { game: gameName })} />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('menu.levels'), to: '/levels' }, { label: t('hardest.crumb') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('hardest.title', { game: gameName })}</h1>
      <p className="mt-2 max-w-2xl text-gray-600 dark:text-gray-400">{t('hardest.intro')}</p>
      {levels.length ? (
        <LevelGrid levels={levels} />
      ) : (
        <p className="mt-6">{t('levels.noGuides')}</p>
      )}
      {total > levels.length && (
        <Link to="/levels?difficulty=hard" className="mt-6 inline-block text-sm font-semibold text-primary-700 hover:underline dark:text-primary-400">
          {t('hardest.allHard', { count: total })}
        </Link>
      )}
    </main>
  );
}
