import { unknownRoute } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

/** The packs, trial and donation terms; null (so 404) while payments are off. */
export default async function pricingLoader({ url, data }: LoaderArgs) {
  return (await data.billing.pricing()) ?? unknownRoute(url.pathname);
}
