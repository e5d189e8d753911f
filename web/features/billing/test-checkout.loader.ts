import { unknownRoute } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

/** The local test checkout exists only while no Stripe key is set (test mode). */
export default async function testCheckoutLoader({ url, data }: LoaderArgs): Promise<null> {
  return (await data.billing.pricing())?.test_mode ? null : unknownRoute(url.pathname);
}
