import type { LoaderArgs } from 'web/lib/router/page';

/** /admin/stats: the site's numbers. */
export default function statsLoader({ data }: LoaderArgs) {
  return data.stats.overview();
}
