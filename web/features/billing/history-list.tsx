import type { LedgerEventView } from 'src/contracts/billing';
import { Badge, mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { formatDateTime, LEDGER_KIND_KEYS, signedNumber } from 'web/lib/billing-format';

export function HistoryList({ events }: { events: LedgerEventView[] }) {
  const { t, tag } = useAccountI18n();
  return (
    <ul className="divide-y divide-gray-200 rounded-3xl border border-gray-200 bg-white shadow-sm dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900/60">
      {events.map((event) => (
        <li key={event.id} data-kind={event.kind} className="flex items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2">
              <Badge tone={event.credits > 0 ? 'green' : event.kind === 'spend' ? 'gray' : 'amber'}>{t(LEDGER_KIND_KEYS[event.kind])}</Badge>
              <span className="font-medium break-words">{event.description}</span>
            </p>
            <p className={`mt-0.5 text-xs ${mutedClass}`}>
              <time dateTime={event.created_at}>{formatDateTime(event.created_at, tag)}</time>
            </p>
          </div>
          <p className={`shrink-0 font-semibold tabular-nums ${event.credits > 0 ? 'text-primary-700 dark:text-primary-400' : ''}`}>{signedNumber(event.credits, tag)}</p>
        </li>
      ))}
    </ul>
  );
}
