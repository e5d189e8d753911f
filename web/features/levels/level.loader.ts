import { parseLevelId, type LevelPageData } from 'src/contracts/levels';
import { invalidPage } from 'web/lib/not-found';
import { PageVariant, type LoaderArgs } from 'web/lib/router/page';

type Guide = Extract<LevelPageData, { kind: 'guide' }>;
type NotCovered = Extract<LevelPageData, { kind: 'not-covered' }>;

/** A level's guide, or the "not covered yet" page (levelMissing) for a number in range with no guide. */
export default async function levelLoader({ params, url, data }: LoaderArgs): Promise<Guide | PageVariant<NotCovered>> {
  const number = parseLevelId(params.id ?? '', data.config.levels.searchMax);
  if (number === null) return invalidPage(url.pathname + url.search);
  const page = await data.levels.page(number);
  return page.kind === 'guide' ? page : new PageVariant('level-missing', page);
}
