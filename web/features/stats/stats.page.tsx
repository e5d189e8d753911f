import { AdminFrame } from 'web/features/ops/admin-frame';
import { useLoaderData } from 'web/lib/router/router';
import type loader from 'web/features/stats/stats.loader';

/** /admin/stats (admins only): how many guides and posts the site has. */
export default function StatsPage() {
  const { guides, posts } = useLoaderData<typeof loader>();
  return (
    <AdminFrame title="Stats" crumb="Stats">
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        <dt>Guides</dt>
        <dd className="tabular-nums">{guides.all} (easy {guides.easy}, medium {guides.medium}, hard {guides.hard})</dd>
        <dt>Posts</dt>
        <dd className="tabular-nums">{posts}</dd>
      </dl>
    </AdminFrame>
  );
}
