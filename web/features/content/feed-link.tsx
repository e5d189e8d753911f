import { usePageI18n } from 'web/i18n/page-messages';
import { HeadTags } from 'web/lib/head-tags';
import { useSiteConfig } from 'web/lib/root-data';

/** The blog's Atom feed, announced in the head of its pages. */
export function FeedLink() {
  const { siteName } = useSiteConfig();
  const { t } = usePageI18n();
  return (
    <HeadTags>
      <link rel="alternate" type="application/atom+xml" title={t('blog.feedTitle', { site: siteName })} href="/blog/feed.xml" />
    </HeadTags>
  );
}
