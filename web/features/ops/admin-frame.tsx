import type { ReactNode } from 'react';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, useLocation } from 'web/lib/router/router';

/*
 * The ops screens, for admins only (the server renders them for accounts with the admin role and
 * answers the 404 page to anyone else): /admin, /admin/guides, /admin/errors and, without Redis, /admin/queues.
 * Their copy is English only, like the dashboards and logs ops read beside them. Everything shown
 * is text React escapes (messages and backtraces come from browsers): no raw HTML here.
 */
export const ADMIN = 'Admin';

export const codeClass = 'rounded bg-gray-100 px-1 py-0.5 font-mono text-[0.85em] dark:bg-gray-800';

/** "2026-11-23 19:16:29 UTC": the same on the server and in every browser. */
export const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** The admin screens, linked from each but the overview; `full`: a page load (with Redis, bull-board answers the path). */
const SCREENS: { label: string; href: string; payments?: boolean; full?: boolean }[] = [
  { label: 'Overview', href: '/admin' },
  { label: 'Guides', href: '/admin/guides' },
  { label: 'Orders', href: '/admin/orders', payments: true },
  { label: 'Errors', href: '/admin/errors' },
  { label: 'Queues', href: '/admin/queues', full: true },
];

function AdminScreens() {
  const { pathname } = useLocation();
  const payments = useSiteConfig().settings.has_payment;
  const linkClass = 'text-gray-700 hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-gray-950 dark:text-gray-300 dark:aria-[current=page]:text-white';
  return (
    <nav aria-label="Admin screens" className="mb-4 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {SCREENS.filter((screen) => payments || !screen.payments).map(({ label, href, full }) => {
        const current = pathname === href ? 'page' : undefined;
        return full ? (
          <a key={href} href={href} aria-current={current} className={linkClass}>
            {label}
          </a>
        ) : (
          <Link key={href} to={href} aria-current={current} className={linkClass}>
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

export function AdminFrame({ title, crumb, children }: { title: string; crumb?: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={crumb ? `${crumb} · ${ADMIN}` : ADMIN} noindex />
      {/* The overview lists the screens itself. */}
      {crumb && <AdminScreens />}
      {crumb && <Breadcrumbs items={[{ label: ADMIN, to: '/admin' }, { label: crumb }]} />}
      <h1 className={`text-3xl font-extrabold tracking-tight sm:text-4xl ${crumb ? 'mt-6' : ''}`}>{title}</h1>
      {children}
    </main>
  );
}
