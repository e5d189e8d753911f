import type { LoaderArgs } from 'web/lib/router/page';

/** The featured guides and the guide ranges, one round trip. */
export default function homeLoader({ data }: LoaderArgs) {
  return data.levels.home();
}
