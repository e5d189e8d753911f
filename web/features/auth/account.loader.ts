import { unknownRoute } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

/** /account and its unsubscribe page: 404 while accounts are off; the account's data loads in the browser. */
export default function accountLoader({ url, data }: LoaderArgs): null {
  if (!data.config.settings.has_login) unknownRoute(url.pathname);
  return null;
}
