import type { CreditsView } from 'src/contracts/billing';
import { formatInteger } from 'src/contracts/number-format';
import { dateFormat } from 'src/contracts/date-format';
import { cardClass, mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { usageChart } from 'web/lib/billing-format';
import { creditsLabel } from 'web/lib/credits';

const CHART_WIDTH = 600;

const CHART_HEIGHT = 160;

const dayLabel = (date: string, tag: string) => dateFormat(tag, 'shortDay').format(new Date(`${date}T00:00:00Z`));

/** Credits used per day over the last 30 days: an inline SVG, described in words for screen readers. */
export function UsageChart({ daily }: { daily: CreditsView['daily_usage'] }) {
  const { t, tag } = useAccountI18n();
  const { bars, max, total, busiest } = usageChart(daily, CHART_WIDTH, CHART_HEIGHT);
  const first = daily[0];
  const last = daily[daily.length - 1];
  const summary = busiest
    ? t('usage.chartSummary', { total: creditsLabel(t, total, tag), date: dayLabel(busiest.date, tag), max: creditsLabel(t, max, tag) })
    : t('usage.chartEmpty');
  return (
    <section aria-labelledby="chart-title" className={`${cardClass} lg:col-span-2`}>
      <h2 id="chart-title" className="text-lg font-bold">
        {t('usage.chart')}
      </h2>
      {first && last && <p className={`text-sm ${mutedClass}`}>{t('usage.chartRange', { from: dayLabel(first.date, tag), to: dayLabel(last.date, tag) })}</p>}
      <figure className="mt-4">
        <div className="flex gap-2">
          <div className={`flex w-6 flex-col justify-between text-right text-xs tabular-nums ${mutedClass}`} aria-hidden="true">
            {max > 0 && (
              <>
                <span>{formatInteger(max, tag)}</span>
                <span>0</span>
              </>
            )}
          </div>
          <svg
            viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
            preserveAspectRatio="none"
            role="img"
            aria-labelledby="chart-svg-title chart-svg-desc"
            className="h-40 w-full min-w-0 flex-1 text-primary-500 dark:text-primary-400"
            data-testid="usage-chart"
          >
            <title id="chart-svg-title">{t('usage.chart')}</title>
            <desc id="chart-svg-desc">{summary}</desc>
            <line x1="0" y1={CHART_HEIGHT - 0.5} x2={CHART_WIDTH} y2={CHART_HEIGHT - 0.5} className="stroke-gray-300 dark:stroke-gray-700" strokeWidth="1" />
            <line x1="0" y1="0.5" x2={CHART_WIDTH} y2="0.5" className="stroke-gray-200 dark:stroke-gray-800" strokeWidth="1" strokeDasharray="4 4" />
            {bars.map((bar) =>
              bar.height ? (
                <rect key={bar.date} x={bar.x} y={bar.y} width={bar.width} height={bar.height} rx="2" fill="currentColor">
                  <title>{`${dayLabel(bar.date, tag)}: ${creditsLabel(t, bar.credits, tag)}`}</title>
                </rect>
              ) : null,
            )}
          </svg>
        </div>
        {first && last && (
          <div className={`mt-1 flex justify-between pl-8 text-xs ${mutedClass}`} aria-hidden="true">
            <span>{dayLabel(first.date, tag)}</span>
            <span>{dayLabel(last.date, tag)}</span>
          </div>
        )}
        <figcaption className={`mt-3 text-sm ${mutedClass}`}>{summary}</figcaption>
      </figure>
    </section>
  );
}
