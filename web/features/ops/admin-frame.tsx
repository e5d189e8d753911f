import type { ReactNode } from 'react';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';

/*
 * The ops screens, for admins only (the server renders them for accounts with the admin role and
 * answers the 404 page to anyone else): /admin, /admin/errors and, without Redis, /admin/queues.
 * Their copy is English only, like the dashboards and logs ops read beside them. Everything shown
 * is text React escapes (messages and backtraces come from browsers): no raw HTML here.
 */
export const ADMIN = 'Admin';

export const codeClass = 'rounded bg-gray-100 px-1 py-0.5 font-mono text-[0.85em] dark:bg-gray-800';

/** "2026-11-23 19:16:29 UTC": the same on the server and in every browser. */
export const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

export function AdminFrame({ title, crumb, children }: { title: string; crumb?: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={crumb ? `${crumb} · ${ADMIN}` : ADMIN} noindex />
      {crumb && <Breadcrumbs items={[{ label: ADMIN, to: '/admin' }, { label: crumb }]} />}
      <h1 className={`text-3xl font-extrabold tracking-tight sm:text-4xl ${crumb ? 'mt-6' : ''}`}>{title}</h1>
      {children}
    </main>
  );
}
