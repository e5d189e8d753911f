import { FaqList } from 'web/components/faq';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useSiteConfig } from 'web/lib/root-data';

/** /faq: the home page's questions (one source, web/components/faq). */
export default function FaqPage() {
  const { siteUrl } = useSiteConfig();
  const { t } = usePageI18n();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('home.faq')} description={t('faq.seoDescription')} />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('home.faq') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('home.faq')}</h1>
      <FaqList url={`${siteUrl}/faq`} />
    </main>
  );
}
