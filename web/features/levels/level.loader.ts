import { parseLevelId, STEPS_QUERY, type LevelPageData } from 'src/contracts/levels';
import { invalidPage } from 'web/lib/not-found';
import { PageVariant, type LoaderArgs } from 'web/lib/router/page';

type Guide = Extract<LevelPageData, { kind: 'guide' }>;
type NotCovered = Extract<LevelPageData, { kind: 'not-covered' }>;

/**
 * A level's guide, or the "not covered yet" page (levelMissing) for a number in range with no guide.
 * A guide in puzzles carries its steps only with `?steps=1` (STEPS_QUERY).
 */
export default async function levelLoader({ params, url, data }: LoaderArgs): Promise<Guide | PageVariant<NotCovered>> {
  const number = parseLevelId(params.id ?? '', data.config.levels.searchMax);
  if (number === null) return invalidPage(url.pathname + url.search);
  const page = await data.levels.page(number);
  if (page.kind !== 'guide') return new PageVariant('level-missing', page);
  // A guide in puzzles: the ladders first, the steps and their pictures on request (HTML and hydration data stay light).
  if (page.level.puzzles && url.searchParams.get(STEPS_QUERY) !== '1') {
    // Each step keeps its video moment only: "Still stuck" and the key moments still point into the walkthrough.
    const steps = page.level.steps.map((step) => (step.atSeconds === undefined ? { html: '' } : { html: '', atSeconds: step.atSeconds }));
    return { ...page, level: { ...page.level, steps }, stepsOnRequest: true };
  }
  return page;
}
