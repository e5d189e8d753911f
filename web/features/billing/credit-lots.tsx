import type { CreditsView } from 'src/contracts/billing';
import { formatInteger } from 'src/contracts/number-format';
import { Badge, cardClass, mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { formatDateTime, LOT_SOURCE_KEYS } from 'web/lib/billing-format';

export function Lots({ lots }: { lots: CreditsView['lots'] }) {
  const { t, tag } = useAccountI18n();
  return (
    <section aria-labelledby="lots" className={cardClass}>
      <h2 id="lots" className="text-lg font-bold">
        {t('usage.lots')}
      </h2>
      {lots.length ? (
        <>
          <p className={`mt-1 text-sm ${mutedClass}`}>{t('usage.lotsIntro')}</p>
          <ul className="mt-4 space-y-3">
            {lots.map((lot) => (
              <li
                key={lot.id}
                data-expiring-soon={lot.expiring_soon || undefined}
                className="rounded-2xl border border-gray-200 p-4 data-expiring-soon:border-amber-400 data-expiring-soon:bg-amber-50 dark:border-gray-800 dark:data-expiring-soon:border-amber-500 dark:data-expiring-soon:bg-amber-950/40"
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-semibold">{t(LOT_SOURCE_KEYS[lot.source])}</p>
                  {lot.expiring_soon && <Badge tone="amber">{t('usage.expiringSoon')}</Badge>}
                </div>
                <p className="mt-1 text-sm">
                  {t('usage.lotRemaining', { remaining: formatInteger(lot.remaining, tag), granted: formatInteger(lot.granted, tag) })}
                </p>
                <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-gray-100 dark:bg-gray-800" aria-hidden="true">
                  <div className="h-full rounded-full bg-primary-500" style={{ width: `${lot.granted ? Math.round((lot.remaining / lot.granted) * 100) : 0}%` }} />
                </div>
                <p className={`mt-2 text-sm ${lot.expiring_soon ? 'font-semibold text-amber-800 dark:text-amber-300' : mutedClass}`}>
                  <time dateTime={lot.expires_at}>{t('usage.expires', { date: formatDateTime(lot.expires_at, tag) })}</time>
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className={`mt-3 ${mutedClass}`}>{t('usage.lotsEmpty')}</p>
      )}
    </section>
  );
}
