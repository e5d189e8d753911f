import { definePage } from 'web/lib/router/page';
import adminErrorsLoader from 'web/features/ops/admin-errors.loader';
import adminLoader from 'web/features/ops/admin.loader';
import adminOrderLoader from 'web/features/ops/admin-order.loader';
import adminOrdersLoader from 'web/features/ops/admin-orders.loader';
import adminQueuesLoader from 'web/features/ops/admin-queues.loader';

/* The ops screens: admins only (anyone else gets the 404 of an unknown path), never cached. */

export const admin = definePage({
  id: 'admin',
  path: '/admin',
  page: () => import('web/features/ops/admin.page'),
  loader: adminLoader,
  sections: ['ops'],
  access: 'admin',
});

export const adminErrors = definePage({
  id: 'admin-errors',
  path: '/admin/errors',
  page: () => import('web/features/ops/admin-errors.page'),
  loader: adminErrorsLoader,
  sections: ['ops'],
  access: 'admin',
});

/** Orders, refunds and grants (404 while payments are off, like the rest of payments). */
export const adminOrders = definePage({
  id: 'admin-orders',
  path: '/admin/orders',
  page: () => import('web/features/ops/admin-orders.page'),
  loader: adminOrdersLoader,
  sections: ['billing'],
  access: 'admin',
  query: ['email', 'number', 'status', 'page'],
});

export const adminOrder = definePage({
  id: 'admin-order',
  path: '/admin/orders/:id',
  page: () => import('web/features/ops/admin-order.page'),
  loader: adminOrderLoader,
  sections: ['billing'],
  access: 'admin',
});

/** The web process's own queues without Redis; with Redis the bull-board dashboard answers this path first. */
export const adminQueues = definePage({
  id: 'admin-queues',
  path: '/admin/queues',
  page: () => import('web/features/ops/admin-queues.page'),
  loader: adminQueuesLoader,
  sections: ['ops'],
  access: 'admin',
});
