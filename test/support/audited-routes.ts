import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAGES } from 'web/route-table';
import { readRouteObjects } from '../../scripts/route-objects.mts';
import { ROOT } from './app-process';

/* Which paths the accessibility test (test/a11y.browser.e2e-spec.ts) audits, and how: read from the route table. */

/**
 * A real path for every route of the route table (web/route-table.ts), so a new page is audited
 * the day it is added: a route with parameters needs a `sample` in its route object, or the first
 * test fails. Only the samples that need this run's orders are written here.
 */
export function routeSamples(orders: { paid: string; pending: string; refunded: string }): Record<string, string> {
  const samples: Record<string, string> = {
    'payment-test-checkout': `/payment/test-checkout?order=${orders.pending}`,
    'payment-success': `/payment/success?order=${orders.paid}`,
    billing: `/billing?order=${orders.paid}`,
    // Partly refunded: every table of the order's trail has rows (credits granted and taken back, a refund).
    'admin-order': `/admin/orders/${orders.refunded}`,
    // Its receipt lists the refund (the admin may see every receipt).
    'billing-receipt': `/billing/receipts/${orders.refunded}`,
  };
  return Object.fromEntries(PAGES.map((route) => [route.id, samples[route.id] ?? route.sample ?? (/[:*]/.test(route.path) ? '' : route.path)]));
}
/** Who sees a route: the account pages signed out only (signed in, they send you home), the admin pages signed in only (anyone else gets the 404 page). */
export const signedOutOnly = (id: string) => PAGES.find((route) => route.id === id)!.path.startsWith('/auth/');
export const signedInOnly = (id: string) => PAGES.find((route) => route.id === id)?.access === 'admin';
/**
 * Signed in, a page differs from its signed-out audit where it reads the session (its module, or a
 * module of web/ it imports, imports web/lib/session: payments, the image tool) or is for admins;
 * every other page differs by the header's account button alone, audited signed in on the home
 * page and on each of those.
 */
export function readsSession(id: string): boolean {
  const route = PAGES.find((r) => r.id === id)!;
  if (id === 'home' || route.access === 'admin') return true;
  const page = pageFiles().get(id);
  return !!page && importsSession(page, new Set());
}
/** Each route's page file, read from its `page` import as the build reads it (scripts/route-objects.mts). */
function pageFiles(): Map<string, string> {
  const features = join(ROOT, 'web/features');
  return new Map(
    readdirSync(features, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.routes.ts'))
      .flatMap((file) => readRouteObjects(readFileSync(join(features, file), 'utf8'), file))
      .flatMap((route) => (route.page ? [[route.id, `${route.page}.tsx`] as const] : [])),
  );
}
function importsSession(module: string, seen: Set<string>): boolean {
  if (seen.has(module)) return false;
  seen.add(module);
  const source = readFileSync(join(ROOT, module), 'utf8');
  if (source.includes("from 'web/lib/session'")) return true;
  // Value imports only: a type-only import runs nothing.
  const imported = [...source.matchAll(/^import (?!type )[^;]*? from '(web\/[^']+)';/gms)].map((match) => match[1]!);
  return imported.some((name) => {
    const file = [`${name}.ts`, `${name}.tsx`].find((candidate) => existsSync(join(ROOT, candidate)));
    return !!file && importsSession(file, seen);
  });
}
