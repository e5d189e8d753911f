import type { LoaderArgs } from 'web/lib/router/page';

export default async function adminLoader({ data }: LoaderArgs) {
  const [queues, attention] = await Promise.all([data.ops.queues(), data.ops.attention()]);
  return { queueMode: queues.mode, payments: data.config.settings.has_payment, attention };
}
