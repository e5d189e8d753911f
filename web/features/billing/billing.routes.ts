import { definePage } from 'web/lib/router/page';
import paymentsOnLoader from 'web/features/billing/payments-on.loader';
import pricingLoader from 'web/features/billing/pricing.loader';
import testCheckoutLoader from 'web/features/billing/test-checkout.loader';

/*
 * Credits and payments (404 while has_payment is off). The HTML is the same for everyone, so it
 * may be cached: only /pricing has loader data (the packs); what belongs to the signed-in user
 * loads in the browser.
 */

export const pricing = definePage({
  id: 'pricing',
  path: '/pricing',
  page: () => import('web/features/billing/pricing.page'),
  loader: pricingLoader,
  sections: ['billing'],
  cache: true,
  sitemap: 'with-payments',
});

export const testCheckout = definePage({
  id: 'payment-test-checkout',
  path: '/payment/test-checkout',
  page: () => import('web/features/billing/test-checkout.page'),
  loader: testCheckoutLoader,
  sections: ['billing'],
  cache: true,
  query: ['order'],
});

export const paymentSuccess = definePage({
  id: 'payment-success',
  path: '/payment/success',
  page: () => import('web/features/billing/payment-success.page'),
  loader: paymentsOnLoader,
  cache: true,
  query: ['order'],
});

export const billing = definePage({
  id: 'billing',
  path: '/billing',
  page: () => import('web/features/billing/billing.page'),
  loader: paymentsOnLoader,
  cache: true,
  query: ['page', 'order'],
});

export const receipt = definePage({
  id: 'billing-receipt',
  path: '/billing/receipts/:order',
  page: () => import('web/features/billing/receipt.page'),
  loader: paymentsOnLoader,
  cache: true,
  sample: '/billing/receipts/00000000-0000-4000-8000-000000000000',
});

export const usage = definePage({
  id: 'usage',
  path: '/usage',
  page: () => import('web/features/billing/usage.page'),
  loader: paymentsOnLoader,
  cache: true,
  query: ['page'],
});
