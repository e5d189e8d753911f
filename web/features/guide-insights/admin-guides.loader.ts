import { guideInsightsQuery } from 'src/contracts/guide-insights';
import type { LoaderArgs } from 'web/lib/router/page';

/** /admin/guides?sort=&dir=&page=: an unknown sort or direction is the default (the API refuses it). */
export default function adminGuidesLoader({ url, data }: LoaderArgs) {
  return data.guideInsights.overview(guideInsightsQuery(url.searchParams));
}
