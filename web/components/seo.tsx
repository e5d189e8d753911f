import { HeadTags } from 'web/lib/head-tags';
import { useLocation } from 'web/lib/router/router';
import { useSiteConfig } from 'web/lib/root-data';
import { formatTitle } from 'web/lib/seo';

/** Title, description, canonical URL and social tags of a page. */
export function Seo({
  title,
  description,
  noindex,
  image = '/og/default.png',
}: {
  title?: string;
  description?: string;
  noindex?: boolean;
  /** Social preview image (1200x660), a path on this site. */
  image?: string;
}) {
  const { siteName, siteUrl } = useSiteConfig();
  const { pathname } = useLocation();
  const fullTitle = formatTitle(title, siteName);
  const canonical = `${siteUrl}${pathname}`;
  return (
    <HeadTags>
      <title>{fullTitle}</title>
      {description && <meta name="description" content={description} />}
      {noindex ? <meta name="robots" content="noindex" /> : <link rel="canonical" href={canonical} />}
      <meta property="og:site_name" content={siteName} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:type" content="website" />
      <meta property="og:url" content={canonical} />
      {description && <meta property="og:description" content={description} />}
      <meta property="og:image" content={`${siteUrl}${image}`} />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="660" />
      {/* X reads the title, description and image from the og: tags above: only the card's kind is its own. */}
      <meta name="twitter:card" content="summary_large_image" />
    </HeadTags>
  );
}
