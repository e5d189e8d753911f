import { useEffect } from 'react';
import type { LedgerEventView, Paged } from 'src/contracts/billing';
import { Account, AccountPage, buttonClass, cardClass, LoadFailed, Loading, mutedClass, Pager, notSignedInYet, useAccountData, useCredits, useSession } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { pageParam } from 'web/lib/billing-format';
import { creditsLabel, refreshCredits } from 'web/lib/credits';
import { Link, useLocation } from 'web/lib/router/router';
import { Lots } from 'web/features/billing/credit-lots';
import { HistoryList } from 'web/features/billing/history-list';
import { ExportLink } from 'web/features/billing/export-link';
import { UsageChart } from 'web/features/billing/usage-chart';

/**
 * Usage: the balance, the lots (soonest to expire first, those within 7 days marked), credits used
 * per day over 30 days, and the history of grants, spends, refunds and expiries.
 */
export default function UsagePage() {
  const { t, tag } = useAccountI18n();
  const { search } = useLocation();
  const session = useSession();
  const credits = useCredits();
  const page = pageParam(search);
  const [history, retryHistory] = useAccountData<Paged<LedgerEventView>>(`/api/v1/credits/history?page=${page}`);
  const email = session.userInfo?.email;

  useEffect(() => {
    if (email) void refreshCredits();
  }, [email]);

  const title = t('usage.title');
  const notYet = notSignedInYet({ session, title, signIn: t('usage.signIn') });
  if (notYet) return notYet;
  const view = credits.view;
  return (
    <AccountPage title={title} wide>
      {view ? (
        <div className="grid gap-6 lg:grid-cols-[1fr_2fr]">
          <section aria-labelledby="balance" className={`${cardClass} lg:self-start`}>
            <h2 id="balance" className={`text-sm font-semibold tracking-wide uppercase ${mutedClass}`}>
              {t('usage.balance')}
            </h2>
            <p className="mt-2 text-4xl font-extrabold tracking-tight tabular-nums" data-testid="usage-balance">
              {creditsLabel(t, view.balance, tag)}
            </p>
            {view.trial_refused ? (
              <p className={`mt-3 text-sm ${mutedClass}`} data-testid="trial-refused">
                {t('usage.trialRefused')}
              </p>
            ) : null}
            <Link to="/pricing" className={`${buttonClass} mt-5 w-full`}>
              {t('usage.buy')}
            </Link>
          </section>
          <Lots lots={view.lots} />
          <UsageChart daily={view.daily_usage} />
        </div>
      ) : credits.failed ? (
        <LoadFailed retry={() => void refreshCredits()} />
      ) : (
        <Loading />
      )}

      <section aria-labelledby="history" className="mt-10">
        <h2 id="history" className="text-xl font-bold">
          {t('usage.history')}
        </h2>
        <div className="mt-4">
          <Account
            remote={history}
            retry={retryHistory}
            signIn={t('usage.signIn')}
            ready={(events) =>
              events.total === 0 ? (
                <p className={`${cardClass} ${mutedClass}`}>{t('usage.historyEmpty')}</p>
              ) : (
                <>
                  <HistoryList events={events.items} />
                  <Pager path="/usage" page={events.page} pages={events.pages} />
                  <div className="mt-4">
                    <ExportLink what="credit-history" label={t('usage.export')} />
                  </div>
                </>
              )
            }
          />
        </div>
      </section>
    </AccountPage>
  );
}
