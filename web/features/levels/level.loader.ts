import { parseLevelId } from 'src/contracts/levels';
import { invalidPage } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

export default function levelLoader({ params, url, data }: LoaderArgs) {
  const number = parseLevelId(params.id ?? '', data.config.levels.searchMax);
  if (number === null) return invalidPage(url.pathname + url.search);
  return data.levels.page(number);
}
