import type { LoaderArgs } from 'web/lib/router/page';

export default async function exploreLoader({ data }: LoaderArgs) {
  const [index, featured] = await Promise.all([data.content.explore(), data.levels.featured()]);
  return { ...index, featured };
}
