import type { LoaderArgs } from 'web/lib/router/page';

export default async function homeLoader({ data }: LoaderArgs) {
  const [featured, guides] = await Promise.all([data.levels.featured(), data.levels.guideRanges()]);
  return { featured, guides };
}
