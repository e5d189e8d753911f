import type { LoaderArgs } from 'web/lib/router/page';

/** The levels with a guide: "Continue at level N" goes to the next one, as on the home page. */
export default async function progressLoader({ data }: LoaderArgs) {
  return { guides: await data.levels.guideRanges() };
}
