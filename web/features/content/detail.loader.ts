import { isPostSlug } from 'src/contracts/content';
import { invalidPage } from 'web/lib/not-found';
import { PageRedirect, type LoaderArgs } from 'web/lib/router/page';

/** Old post addresses: /detail/{slug} moved to /blog/{slug}. */
export default async function detailLoader({ params, url, data }: LoaderArgs): Promise<never> {
  const slug = params.slug ?? '';
  if (isPostSlug(slug) && (await data.content.post(slug))) throw new PageRedirect(`/blog/${slug}`, 301);
  return invalidPage(url.pathname + url.search);
}
