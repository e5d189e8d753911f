import { unknownRoute } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';

/** Billing, usage, the payment pages and the image tool: 404 while payments are off; their data loads in the browser. */
export default function paymentsOnLoader({ url, data }: LoaderArgs): null {
  if (!data.config.settings.has_payment) unknownRoute(url.pathname);
  return null;
}
