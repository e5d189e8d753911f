import { unknownRoute } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

export default function notFoundLoader({ url }: LoaderArgs): never {
  return unknownRoute(url.pathname);
}
