import type { LoaderArgs } from 'web/lib/router/page';

export default async function homeLoader({ data }: LoaderArgs) {
  return { featured: await data.levels.featured() };
}
