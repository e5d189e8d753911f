import { unknownRoute } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

export default async function adminOrderLoader({ params, url, data }: LoaderArgs) {
  return (await data.billing.adminOrder(params.id ?? '')) ?? unknownRoute(url.pathname);
}
