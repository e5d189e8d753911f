import { FaqList } from 'web/components/faq';
import { formatInteger } from 'src/contracts/number-format';
import { Icon, type IconName } from 'web/components/icons';
import { DifficultyBadge, ReferenceTime } from 'web/components/level-bits';
import { LevelSearchForm } from 'web/components/level-search-form';
import { Seo } from 'web/components/seo';
import { usePageI18n, type PageMessageKey } from 'web/i18n/page-messages';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, useLoaderData } from 'web/lib/router/router';
import type { GuideRanges } from 'src/contracts/levels';
import { continueAt } from 'src/contracts/progress';
import { useProgress } from 'web/lib/progress';
import { useParseTimeScripts } from 'web/lib/render-context';
import type loader from 'web/features/levels/home.loader';

/** Displayed stats from the spec. */
const STATS: { icon: IconName; value: string; label: PageMessageKey }[] = [
  { icon: 'star', value: '4.7', label: 'home.statRating' },
  { icon: 'download', value: '10M+', label: 'home.statDownloads' },
  { icon: 'shield', value: '12+', label: 'home.statAge' },
];

const PROMISES: { icon: IconName; title: PageMessageKey; text: PageMessageKey }[] = [
  { icon: 'lightbulb', title: 'home.hintsTitle', text: 'home.hintsText' },
  { icon: 'list', title: 'home.guideTitle', text: 'home.guideText' },
  { icon: 'play', title: 'home.videoTitle', text: 'home.videoText' },
];

const HOW_TO_PLAY: { title: PageMessageKey; text: PageMessageKey }[] = [
  { title: 'home.lookTitle', text: 'home.lookText' },
  { title: 'home.collectTitle', text: 'home.collectText' },
  { title: 'home.combineTitle', text: 'home.combineText' },
  { title: 'home.codeTitle', text: 'home.codeText' },
];

/**
 * "Continue at level N" once this browser has solved a level: the next level with a guide, drawn by
 * PROGRESS_LIST_SCRIPT before the first paint (from `data-guides`), then by React.
 */
function ContinueAt({ guides }: { guides: GuideRanges }) {
  const { t } = usePageI18n();
  const { progressList: script } = useParseTimeScripts();
  const next = continueAt(useProgress(), guides);
  const [before, after] = t('home.continue', { level: '\u0000' }).split('\u0000');
  return (
    <div>
      <p data-continue data-guides={guides} hidden={next === undefined} className="mt-4">
        <Link
          to={`/levels/${next ?? 1}`}
          className="inline-flex items-center gap-2 rounded-full bg-primary-700 px-5 py-2 font-semibold text-white shadow-sm hover:bg-primary-800 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400"
        >
          {before}
          <span data-n suppressHydrationWarning>
            {next ?? 1}
          </span>
          {after} <Icon name="chevronRight" className="size-4" />
        </Link>
      </p>
      <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />
    </div>
  );
}

export default function HomePage() {
  const { gameName, siteName, levels, appStores, siteUrl } = useSiteConfig();
  const { featured, guides } = useLoaderData<typeof loader>();
  const { t, tag } = usePageI18n();
  const claimed = formatInteger(levels.claimed, tag);
  return (
    <main>
      <Seo title={t('home.seoTitle', { game: gameName })} description={t('home.seoDescription', { game: gameName })} />
      <section className="relative isolate overflow-hidden">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_50%_-10%,var(--color-primary-100),transparent)] dark:bg-[radial-gradient(60rem_30rem_at_50%_-10%,color-mix(in_oklch,var(--color-primary-900)_45%,transparent),transparent)]"
        />
        <div className="mx-auto max-w-3xl px-4 pt-16 pb-12 text-center sm:px-6 sm:pt-24">
          <p className="inline-flex items-center gap-2 rounded-full border border-primary-200 bg-white/70 px-3 py-1 text-xs font-semibold tracking-wide text-primary-800 uppercase dark:border-primary-900 dark:bg-gray-900/60 dark:text-primary-300">
            <Icon name="key" className="size-3.5 text-my-color-500" />
            {t('home.badge', { game: gameName })}
          </p>
          <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
            {t('home.title')} <span className="text-primary-600 dark:text-primary-400">{t('home.titleHighlight')}</span>
          </h1>
          <p className="mx-auto mt-5 max-w-xl text-lg leading-8 text-pretty text-gray-600 dark:text-gray-300">
            {t('home.intro', { claimed, game: gameName })}
          </p>
          <div className="mx-auto mt-8 max-w-lg">
            <LevelSearchForm size="lg" />
          </div>
          <ContinueAt guides={guides} />
          <dl className="mx-auto mt-10 grid max-w-md grid-cols-3 gap-3">
            {STATS.map((stat) => (
              <div key={stat.label} className="rounded-2xl border border-gray-200 bg-white/80 px-3 py-4 dark:border-gray-800 dark:bg-gray-900/60">
                <dt className="sr-only">{t(stat.label)}</dt>
                <dd className="flex items-center justify-center gap-1 text-xl font-bold sm:gap-1.5 sm:text-2xl">
                  <Icon name={stat.icon} className="size-4 shrink-0 text-my-color-500 sm:size-5" />
                  {stat.value}
                </dd>
                <dd aria-hidden="true" className="mt-1 text-xs font-medium text-gray-500 dark:text-gray-400">
                  {t(stat.label)}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
      <section aria-labelledby="how-it-helps" className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="how-it-helps" className="sr-only">
          {t('home.helps', { site: siteName })}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          {PROMISES.map((item) => (
            <li key={item.title} className="rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
              <span className="inline-flex size-10 items-center justify-center rounded-xl bg-primary-50 text-primary-700 dark:bg-primary-950 dark:text-primary-300">
                <Icon name={item.icon} className="size-5" />
              </span>
              <h3 className="mt-4 font-semibold">{t(item.title)}</h3>
              <p className="mt-1.5 text-sm leading-6 text-gray-600 dark:text-gray-400">{t(item.text)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="about-game" className="mx-auto mt-20 grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-2">
        <div>
          <h2 id="about-game" className="text-2xl font-bold tracking-tight sm:text-3xl">
            {t('home.about', { game: gameName })}
          </h2>
          <p className="mt-4 leading-7 text-gray-600 dark:text-gray-400">{t('home.aboutText', { game: gameName })}</p>
          <p className="mt-3 leading-7 text-gray-600 dark:text-gray-400">{t('home.aboutCoverage')}</p>
        </div>
        <div id="how-to-play">
          <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('home.howToPlay')}</h2>
          <ol className="mt-4 space-y-4">
            {HOW_TO_PLAY.map((step, i) => (
              <li key={step.title} className="flex gap-4">
                <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary-700 font-bold text-white dark:bg-primary-500 dark:text-gray-950">
                  {i + 1}
                </span>
                <div>
                  <h3 className="font-semibold">{t(step.title)}</h3>
                  <p className="mt-0.5 text-sm leading-6 text-gray-600 dark:text-gray-400">{t(step.text)}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      {featured.length > 0 && (
        <section aria-labelledby="featured-levels" className="mx-auto mt-20 max-w-6xl px-4 sm:px-6">
          <div className="flex items-end justify-between gap-4">
            <h2 id="featured-levels" className="text-2xl font-bold tracking-tight sm:text-3xl">
              {t('home.popular')}
            </h2>
            <Link to="/levels" className="text-sm font-semibold text-primary-700 hover:underline dark:text-primary-400">
              {t('levels.allLink')}
            </Link>
          </div>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {featured.map((level) => (
              <li key={level.number} className="flex flex-col rounded-2xl border border-gray-200 p-5 dark:border-gray-800">
                <div className="flex items-center justify-between">
                  <span className="text-sm font-semibold text-gray-500 dark:text-gray-400">{t('level.number', { level: level.number })}</span>
                  <DifficultyBadge difficulty={level.difficulty} />
                </div>
                <h3 className="mt-2 text-lg font-semibold">{level.title}</h3>
                <div className="mt-2">
                  <ReferenceTime seconds={level.referenceSeconds} />
                </div>
                <Link
                  to={`/levels/${level.number}`}
                  className="mt-4 inline-flex w-fit items-center gap-1 rounded-full bg-primary-50 px-4 py-2 text-sm font-semibold text-primary-800 hover:bg-primary-100 dark:bg-primary-950 dark:text-primary-300 dark:hover:bg-primary-900"
                >
                  {t('home.viewGuide')} <Icon name="chevronRight" className="size-4" />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="download" className="mx-auto mt-20 max-w-6xl px-4 sm:px-6">
        <div className="flex flex-col items-start gap-6 rounded-3xl bg-gray-900 p-8 text-white sm:p-10 md:flex-row md:items-center md:justify-between dark:bg-gray-900 dark:ring-1 dark:ring-gray-800">
          <div>
            <h2 id="download" className="flex items-center gap-2 text-2xl font-bold">
              <Icon name="smartphone" className="size-6 text-primary-400" /> {t('home.getGame', { game: gameName })}
            </h2>
            <p className="mt-2 max-w-lg text-gray-300">{t('home.getGameText')}</p>
          </div>
          <div className="flex flex-wrap gap-3">
            {appStores.appStore && (
              <a href={appStores.appStore} rel="noopener" className="rounded-full bg-white px-5 py-2.5 font-semibold text-gray-900 hover:bg-gray-100">
                {t('home.appStore')}
              </a>
            )}
            {appStores.playStore && (
              <a href={appStores.playStore} rel="noopener" className="rounded-full bg-white px-5 py-2.5 font-semibold text-gray-900 hover:bg-gray-100">
                {t('home.playStore')}
              </a>
            )}
            {/* A store without a configured link: how to find the game there, never a dead button. */}
            {(!appStores.appStore || !appStores.playStore) && (
              <ul className="space-y-1 text-sm text-gray-300" data-testid="store-help">
                {!appStores.appStore && <li>{t('download.findOnAppStore', { game: gameName })}</li>}
                {!appStores.playStore && <li>{t('download.findOnPlayStore', { game: gameName })}</li>}
              </ul>
            )}
          </div>
        </div>
      </section>

      <section aria-labelledby="faq" className="mx-auto mt-20 max-w-3xl px-4 sm:px-6">
        <h2 id="faq" className="text-center text-2xl font-bold tracking-tight sm:text-3xl">
          {t('home.faq')}
        </h2>
        <FaqList url={`${siteUrl}/`} />
      </section>

      <section aria-labelledby="cta" className="mx-auto mt-20 max-w-3xl px-4 text-center sm:px-6">
        <h2 id="cta" className="text-2xl font-bold tracking-tight sm:text-3xl">
          {t('home.cta')}
        </h2>
        <p className="mt-2 text-gray-600 dark:text-gray-400">{t('home.ctaText')}</p>
        <div className="mx-auto mt-6 max-w-lg">
          <LevelSearchForm size="lg" label={t('home.cta')} />
        </div>
      </section>
    </main>
  );
}
