import type { LevelSummary } from 'src/contracts/levels';
import { Breadcrumbs } from 'web/components/level-bits';
import { RequestGuide } from 'web/components/request-guide';
import { Seo } from 'web/components/seo';
import { levelCrumbs, PrevNext } from 'web/features/levels/level-nav';
import { useT } from 'web/i18n/i18n';
import { useSiteConfig } from 'web/lib/root-data';
import { useVariantData } from 'web/lib/router/router';
import type loader from 'web/features/levels/level.loader';

/** /levels/{n} for a number in range with no guide yet: the nearest guides and "Request this guide". */
export default function LevelMissingPage() {
  const { number, prev, next } = useVariantData<typeof loader>();
  return <NotCoveredPage number={number} prev={prev} next={next} />;
}

function NotCoveredPage({ number, prev, next }: { number: number; prev?: LevelSummary; next?: LevelSummary }) {
  const { gameName } = useSiteConfig();
  const t = useT();
  const values = { level: number, game: gameName };
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo
        title={t('level.missingSeoTitle', values)}
        description={t('level.missingSeoDescription', values)}
        noindex
      />
      <Breadcrumbs items={levelCrumbs(number, t)} />
      <div className="mt-8 rounded-3xl border border-dashed border-gray-300 p-8 text-center sm:p-12 dark:border-gray-700">
        <p className="text-sm font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400">{t('level.number', values)}</p>
        <h1 className="mt-2 text-2xl font-extrabold tracking-tight sm:text-3xl">{t('level.missingTitle')}</h1>
        <p className="mx-auto mt-3 max-w-md text-gray-600 dark:text-gray-400">{t('level.missingText', values)}</p>
        <div className="mt-6 flex justify-center">
          <RequestGuide level={number} />
        </div>
      </div>
      {(prev || next) && <p className="mt-8 text-center text-sm font-semibold text-gray-700 dark:text-gray-300">{t('level.nearest')}</p>}
      <PrevNext prev={prev} next={next} />
    </main>
  );
}
