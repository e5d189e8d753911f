import type { LoaderArgs } from 'web/lib/router/page';

export default async function adminLoader({ data }: LoaderArgs) {
  return { queueMode: (await data.ops.queues()).mode, payments: data.config.settings.has_payment };
}
