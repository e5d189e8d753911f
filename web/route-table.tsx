import type { ComponentType } from 'react';
import type { PageRoute } from 'web/lib/router/page';

const Nothing: ComponentType = () => null;
const nothing = async () => Nothing;

const AUTH_MODULE = 'web/routes/auth.pages.tsx';
const auth = (name: 'LoginPage' | 'SignUpPage' | 'EmailVerificationPage' | 'ConfirmPage' | 'SignInLinkPage' | 'ForgotPasswordPage' | 'PasswordResetPage') => () =>
  import('web/routes/auth.pages').then((m) => m[name]);

/** The account pages; their loader sends everyone home while accounts are off (HAS_LOGIN). */
function authRoutes(): PageRoute[] {
  return [
    { id: 'auth-login', path: '/auth/login', module: AUTH_MODULE, load: auth('LoginPage') },
    { id: 'auth-signup', path: '/auth/signup', module: AUTH_MODULE, load: auth('SignUpPage') },
    { id: 'auth-email-verifications', path: '/auth/email_verifications', module: AUTH_MODULE, load: auth('EmailVerificationPage') },
    { id: 'auth-confirm', path: '/auth/confirm', module: AUTH_MODULE, load: auth('ConfirmPage') },
    { id: 'auth-sign-in-link', path: '/auth/sign_in_link', module: AUTH_MODULE, load: auth('SignInLinkPage') },
    { id: 'auth-forgot-password', path: '/auth/forgot_password', module: AUTH_MODULE, load: auth('ForgotPasswordPage') },
    { id: 'auth-password-reset', path: '/auth/password_reset', module: AUTH_MODULE, load: auth('PasswordResetPage') },
  ];
}

export const AUTH_PAGES = authRoutes().map((route) => route.id);

const BILLING_MODULE = 'web/routes/billing.pages.tsx';
const billing = (name: 'PricingPage' | 'TestCheckoutPage' | 'PaymentSuccessPage' | 'BillingPage' | 'UsagePage') => () =>
  import('web/routes/billing.pages').then((m) => m[name]);

/**
 * Credits and payments (404 while has_payment is off). The HTML is the same for everyone, so it
 * may be cached; what belongs to the signed-in user loads in the browser.
 */
function billingRoutes(): PageRoute[] {
  return [
    { id: 'pricing', path: '/pricing', module: BILLING_MODULE, load: billing('PricingPage'), cache: true },
    { id: 'payment-test-checkout', path: '/payment/test-checkout', module: BILLING_MODULE, load: billing('TestCheckoutPage'), cache: true, query: ['order'] },
    { id: 'payment-success', path: '/payment/success', module: BILLING_MODULE, load: billing('PaymentSuccessPage'), cache: true, query: ['order'] },
    { id: 'billing', path: '/billing', module: BILLING_MODULE, load: billing('BillingPage'), cache: true, query: ['page', 'order'] },
    { id: 'usage', path: '/usage', module: BILLING_MODULE, load: billing('UsagePage'), cache: true, query: ['page'] },
  ];
}

/** The account pages of payments, whose loader only checks that payments are on. */
export const PAYMENT_ACCOUNT_PAGES = billingRoutes()
  .map((route) => route.id)
  .filter((id) => id !== 'pricing');

const ADMIN_MODULE = 'web/routes/admin.pages.tsx';
const admin = (name: 'AdminPage' | 'AdminErrorsPage' | 'AdminQueuesPage') => () => import('web/routes/admin.pages').then((m) => m[name]);
const ADMIN_ORDERS_MODULE = 'web/routes/admin-orders.pages.tsx';
const adminOrders = (name: 'AdminOrdersPage' | 'AdminOrderPage') => () => import('web/routes/admin-orders.pages').then((m) => m[name]);

/** The ops screens: admins only (anyone else gets the 404 of an unknown path), never cached. */
function adminRoutes(): PageRoute[] {
  return [
    { id: 'admin', path: '/admin', module: ADMIN_MODULE, load: admin('AdminPage'), access: 'admin' },
    { id: 'admin-errors', path: '/admin/errors', module: ADMIN_MODULE, load: admin('AdminErrorsPage'), access: 'admin' },
    // Orders, refunds and grants (404 while payments are off, like the rest of payments).
    { id: 'admin-orders', path: '/admin/orders', module: ADMIN_ORDERS_MODULE, load: adminOrders('AdminOrdersPage'), access: 'admin', query: ['email', 'number', 'status', 'page'] },
    { id: 'admin-order', path: '/admin/orders/:id', module: ADMIN_ORDERS_MODULE, load: adminOrders('AdminOrderPage'), access: 'admin' },
    // The web process's own queues without Redis; with Redis the bull-board dashboard answers this path first.
    { id: 'admin-queues', path: '/admin/queues', module: ADMIN_MODULE, load: admin('AdminQueuesPage'), access: 'admin' },
  ];
}

/**
 * Every page of the site, first match wins; the last entry catches unknown paths (404). Loaders
 * live in web/loaders, keyed by the same ids, so server-only code stays out of the browser. Each
 * page component is a chunk of its own, loaded before the page renders.
 */
export const PAGES: PageRoute[] = [
  { id: 'home', path: '/', module: 'web/routes/home.page.tsx', load: () => import('web/routes/home.page').then((m) => m.HomePage), cache: true },
  { id: 'levels', path: '/levels', module: 'web/routes/levels.page.tsx', load: () => import('web/routes/levels.page').then((m) => m.LevelsPage), cache: true, query: ['level', 'difficulty', 'query', 'page'] },
  { id: 'level', path: '/levels/:id', module: 'web/routes/level.page.tsx', load: () => import('web/routes/level.page').then((m) => m.LevelPage), cache: true },
  // "Something wrong with this guide?": the report form of a guide (its own chunk, so not in a level page's first load).
  { id: 'guide-report', path: '/levels/:id/report', module: 'web/routes/guide-report.page.tsx', load: () => import('web/routes/guide-report.page').then((m) => m.GuideReportPage), cache: true },
  { id: 'blog', path: '/blog', module: 'web/routes/blog.page.tsx', load: () => import('web/routes/blog.page').then((m) => m.BlogListPage), cache: true, query: ['query', 'page'] },
  { id: 'post', path: '/blog/*slug', module: 'web/routes/blog.page.tsx', load: () => import('web/routes/blog.page').then((m) => m.PostPage), cache: true },
  { id: 'category', path: '/category/:tag', module: 'web/routes/blog.page.tsx', load: () => import('web/routes/blog.page').then((m) => m.BlogListPage), cache: true, query: ['page'] },
  { id: 'month', path: '/month/:month', module: 'web/routes/blog.page.tsx', load: () => import('web/routes/blog.page').then((m) => m.BlogListPage), cache: true, query: ['page'] },
  { id: 'detail', path: '/detail/:slug', load: nothing },
  { id: 'download', path: '/download', module: 'web/routes/info.pages.tsx', load: () => import('web/routes/info.pages').then((m) => m.DownloadPage), cache: true },
  { id: 'faq', path: '/faq', module: 'web/routes/info.pages.tsx', load: () => import('web/routes/info.pages').then((m) => m.FaqPage), cache: true },
  { id: 'media', path: '/media', module: 'web/routes/info.pages.tsx', load: () => import('web/routes/info.pages').then((m) => m.MediaPage), cache: true },
  { id: 'explore', path: '/explore', module: 'web/routes/info.pages.tsx', load: () => import('web/routes/info.pages').then((m) => m.ExplorePage), cache: true },
  ...authRoutes(),
  ...billingRoutes(),
  // The image tool (404 while payments are off); the user's jobs load in the browser.
  { id: 'image-tool', path: '/tools/image', module: 'web/routes/images.page.tsx', load: () => import('web/routes/images.page').then((m) => m.ImageToolPage), cache: true },
  ...adminRoutes(),
  // Any content page by slug; last before the catch-all.
  { id: 'page', path: '/:slug', module: 'web/routes/content.page.tsx', load: () => import('web/routes/content.page').then((m) => m.ContentPage), cache: true },
  { id: 'not-found', path: '*', load: nothing },
];

const byId = new Map(PAGES.map((page) => [page.id, page]));

/** The source module of a route's component: the client build's manifest key of its chunk. */
export const moduleOf = (routeId: string) => byId.get(routeId)?.module;
/** The colour mode a route asks to force, as written in the table (see forcedColorMode). */
export const colorModeOf = (routeId: string) => byId.get(routeId)?.colorMode;
const loaded = new Map<string, ComponentType>();

/** Loads the component of a route (once); call before rendering that route. */
export async function loadPage(routeId: string): Promise<void> {
  const route = byId.get(routeId);
  if (route && !loaded.has(routeId)) loaded.set(routeId, await route.load());
}

/** The component of a route loaded by loadPage, or undefined. */
export const loadedPage = (routeId: string) => loaded.get(routeId);
