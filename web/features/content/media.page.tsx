import { formatDate } from 'src/contracts/dates';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useLoaderData } from 'web/lib/router/router';
import type loader from 'web/features/content/media.loader';

/** /media: press and media coverage, from content/media.yaml. */
export default function MediaPage() {
  const entries = useLoaderData<typeof loader>();
  const { t, tag } = usePageI18n();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('media.title')} description={t('media.seoDescription')} />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('menu.media') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('media.title')}</h1>
      {entries.length ? (
        <ul className="mt-8 divide-y divide-gray-200 dark:divide-gray-800">
          {entries.map((entry) => (
            <li key={entry.url} className="py-5">
              <p className="text-sm text-gray-500 dark:text-gray-400">
                {entry.outlet} · <time dateTime={entry.date}>{formatDate(entry.date, tag)}</time>
              </p>
              <h2 className="mt-1 text-lg font-semibold">
                <a href={entry.url} rel="noopener nofollow" className="text-primary-700 underline decoration-primary-700/40 underline-offset-4 hover:decoration-primary-700 dark:text-primary-400 dark:decoration-primary-400/40 dark:hover:decoration-primary-400">
                  {entry.title}
                </a>
              </h2>
              {entry.summary && <p className="mt-1 text-gray-600 dark:text-gray-400">{entry.summary}</p>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-8">{t('media.empty')}</p>
      )}
    </main>
  );
}
