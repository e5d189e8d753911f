import { formatDate } from 'src/contracts/dates';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useLoaderData } from 'web/lib/router/router';
import type loader from 'web/features/content/content.loader';

/** Any content page by slug: /terms-of-service, /privacy-policy, /faq, /app, ... */
export default function ContentPage() {
  const page = useLoaderData<typeof loader>();
  const { t, tag } = usePageI18n();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={page.title} description={page.description || undefined} />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: page.title }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{page.title}</h1>
      <p className="mt-2 text-sm text-gray-500 dark:text-gray-400">{t('content.updated', { date: formatDate(page.updatedOn, tag) })}</p>
      <div className="prose-content mt-8" dangerouslySetInnerHTML={{ __html: page.html }} />
    </main>
  );
}
