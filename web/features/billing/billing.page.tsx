import type { OrderView, Paged, PricingData } from 'src/contracts/billing';
import { Account, AccountPage, buttonClass, cardClass, mutedClass, Pager, useAccountData } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { pageParam } from 'web/lib/billing-format';
import { Link, useLocation } from 'web/lib/router/router';
import { orderParam } from 'web/features/billing/order-facts';
import { OrdersTable } from 'web/features/billing/orders-table';
import { ExportLink } from 'web/features/billing/export-link';
import { RefundRuleNote } from 'web/features/billing/refund-rule-note';

/**
 * The billing history (spec: order id, amount, refunded amount, status, credits, created at),
 * newest first, 20 a page. ?order=<id> highlights that order (the success page's View Order).
 * Below the sm breakpoint each row becomes a card of label and value pairs.
 */
export default function BillingPage() {
  const { t } = useAccountI18n();
  const { search } = useLocation();
  const page = pageParam(search);
  const highlight = orderParam(search);
  const [remote, retry] = useAccountData<Paged<OrderView>>(`/api/v1/orders?page=${page}`);
  const [pricing] = useAccountData<PricingData>('/api/v1/pricing');

  return (
    <AccountPage title={t('billing.title')} wide>
      <Account
        remote={remote}
        retry={retry}
        signIn={t('billing.signIn')}
        ready={(orders) =>
          orders.total === 0 ? (
            <div className={`${cardClass} text-center`}>
              <p className="text-lg font-semibold">{t('billing.empty')}</p>
              <p className={`mt-1 ${mutedClass}`}>{t('billing.emptyText')}</p>
              <Link to="/pricing" className={`${buttonClass} mt-5`}>
                {t('billing.emptyLink')}
              </Link>
            </div>
          ) : (
            <>
              <OrdersTable orders={orders.items} highlight={highlight} onChanged={retry} />
              <Pager path="/billing" page={orders.page} pages={orders.pages} />
              <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
                {pricing.status === 'ready' && <RefundRuleNote rule={pricing.data.refund_rule} />}
                <ExportLink what="orders" label={t('billing.export')} />
              </div>
            </>
          )
        }
      />
    </AccountPage>
  );
}
