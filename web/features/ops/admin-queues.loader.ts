import type { LoaderArgs } from 'web/lib/router/page';

export default function adminQueuesLoader({ data }: LoaderArgs) {
  return data.ops.queues();
}
