import { parseLevelId } from 'src/contracts/levels';
import { invalidPage } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

/** The report form of a guide: a 404 for a level without one, like the API. */
export default async function guideReportLoader({ params, url, data }: LoaderArgs) {
  const number = parseLevelId(params.id ?? '', data.config.levels.searchMax);
  const guide = number === null ? null : await data.guideReports.page(number);
  return guide ?? invalidPage(url.pathname + url.search);
}
