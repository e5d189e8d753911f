import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { IMAGE_CREDITS } from 'src/contracts/images';
import { buttonClass, cardClass, linkClass, mutedClass, useCredits, useSession } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { TestModeNote } from 'web/components/test-mode-note';
import { useAccountI18n } from 'web/i18n/account-messages';
import { creditsLabel } from 'web/lib/credits';
import { useSiteConfig } from 'web/lib/root-data';
import { Link } from 'web/lib/router/router';

/**
 * The cost, the balance (or the sign-in offer), what the conversion will give (`summary`), the
 * submit button and why a submission was refused. On phones it stays at the bottom of the screen,
 * so Convert is in reach below the options; the page keeps its height clear there (useStickyClearance). The button is never `disabled` while working (that would drop keyboard focus to the page,
 * and the low-credit modal could not give it back, WCAG 2.4.3): it says what runs and does nothing.
 */
export function Checkout({ working, problem, summary }: { working: 'sending' | 'converting' | null; problem: string | null; summary: ReactNode }) {
  const { t, tag } = useAccountI18n();
  const { trialCredits } = useSiteConfig();
  const session = useSession();
  const credits = useCredits();
  const cost = creditsLabel(t, IMAGE_CREDITS, tag);
  const balance = credits.view?.balance;
  const card = useRef<HTMLDivElement>(null);
  useStickyClearance(card);
  return (
    <div
      ref={card}
      className={`${cardClass} max-lg:sticky max-lg:bottom-2 max-lg:z-20 max-lg:!bg-white max-lg:!p-4 max-lg:shadow-xl max-lg:ring-1 max-lg:ring-gray-900/5 lg:sticky lg:top-24 dark:max-lg:!bg-gray-900`}
      data-testid="image-checkout"
    >
      <dl className="space-y-3 max-lg:flex max-lg:flex-wrap max-lg:gap-x-6 max-lg:gap-y-1 max-lg:space-y-0 max-lg:text-sm">
        <div className="flex items-baseline justify-between gap-4">
          <dt className={mutedClass}>{t('image.cost')}</dt>
          <dd className="text-right">
            <span className="text-lg font-bold" data-testid="image-cost">
              {cost}
            </span>{' '}
            <span className={`text-sm ${mutedClass}`}>{t('image.perImage')}</span>
          </dd>
        </div>
        {session.userInfo && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className={mutedClass}>{t('image.balance')}</dt>
            <dd className="font-semibold tabular-nums" data-testid="image-balance" aria-busy={balance === undefined}>
              {balance !== undefined ? creditsLabel(t, balance, tag) : '…'}
            </dd>
          </div>
        )}
      </dl>
      {summary && (
        <p className="mt-3 text-sm tabular-nums max-lg:mt-1" data-testid="image-checkout-summary">
          {summary}
        </p>
      )}
      {session.loaded && !session.userInfo && (
        <p className="mt-4 rounded-2xl bg-primary-50 px-4 py-3 text-sm text-primary-900 dark:bg-primary-950/60 dark:text-primary-100" data-testid="image-sign-in-note">
          <Icon name="lock" className="mr-1 inline-block size-4 align-[-2px]" />
          {t('image.signInToConvert')} {trialCredits > 0 && t('image.signInTrial', { credits: creditsLabel(t, trialCredits, tag) })}{' '}
          <Link to="/auth/signup" className={`${linkClass} underline`}>
            {t('auth.createAnAccount')}
          </Link>
        </p>
      )}
      {balance !== undefined && balance < IMAGE_CREDITS && (
        <p className="mt-4 rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-900 max-lg:mt-2 max-lg:py-2 dark:bg-amber-950/50 dark:text-amber-100">
          {t('image.notEnough', { credits: cost })}{' '}
          <Link to="/pricing" className={linkClass}>
            {t('image.getCredits')}
          </Link>
        </p>
      )}
      <button
        type="submit"
        aria-disabled={working ? true : undefined}
        className={`${buttonClass} mt-5 w-full aria-disabled:cursor-progress aria-disabled:opacity-60 max-lg:mt-3`}
        data-testid="image-submit"
      >
        {working && <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />}
        {t(working === 'sending' ? 'image.sending' : working === 'converting' ? 'image.converting' : 'image.submit')}
      </button>
      {problem && (
        <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950/40 dark:text-red-300" data-testid="image-problem">
          {problem}
        </p>
      )}
      <p className={`mt-4 text-xs max-lg:hidden ${mutedClass}`}>{t('image.kept')}</p>
      <TestModeNote className="mt-4 max-lg:hidden" />
    </div>
  );
}

/**
 * While the card sticks to the bottom of the screen (phones), the page's scroll padding is its
 * height: whatever is scrolled into view (a focused field, the plan of a newly chosen image) stops
 * above the card instead of under it.
 */
function useStickyClearance(card: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const element = card.current;
    if (!element || typeof ResizeObserver !== 'function') return;
    const root = document.documentElement;
    const update = () => {
      const style = getComputedStyle(element);
      const atBottom = style.position === 'sticky' && style.bottom !== 'auto';
      root.style.scrollPaddingBottom = atBottom ? `${Math.ceil(element.getBoundingClientRect().height) + 16}px` : '';
    };
    const observer = new ResizeObserver(update);
    observer.observe(element);
    window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', update);
      root.style.scrollPaddingBottom = '';
    };
  }, [card]);
}
