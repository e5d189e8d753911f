import { isPostSlug } from 'src/contracts/content';
import { invalidPage } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

export default async function postLoader({ params, url, data }: LoaderArgs) {
  const slug = params.slug ?? '';
  const post = isPostSlug(slug) ? await data.content.post(slug) : null;
  return post ?? invalidPage(url.pathname + url.search);
}
