import { isPageSlug } from 'src/contracts/content';
import { notFound } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

export default async function contentLoader({ params, url, data }: LoaderArgs) {
  const slug = params.slug ?? '';
  const page = isPageSlug(slug) ? await data.content.page(slug) : null;
  return page ?? notFound(`Page not found: ${url.pathname}`);
}
