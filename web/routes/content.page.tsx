import type { ContentPageView } from 'src/contracts/content';
import { formatDate } from 'src/contracts/dates';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { usePageData } from 'web/lib/router/router';

/** Any content page by slug: /terms-of-service, /privacy-policy, /faq, /app, ... */
export function ContentPage() {
  const page = usePageData<ContentPageView>();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={page.title} description={page.description || undefined} />
      <Breadcrumbs items={[{ label: 'Home', to: '/' }, { label: page.title }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{page.title}</h1>
      <p className="mt-2 text-sm text-gray-500 dark:text-gray-400">{`Last updated ${formatDate(page.updatedOn)}`}</p>
      <div className="prose-content mt-8" dangerouslySetInnerHTML={{ __html: page.html }} />
    </main>
  );
}
