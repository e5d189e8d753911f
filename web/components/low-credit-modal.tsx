import { useEffect, useId, useRef, useState } from 'react';
import { CREDITS_PER_DONATED_DOLLAR, lowCreditModal, type InsufficientCreditsBody } from 'src/contracts/billing';
import { useAccountI18n, type AccountMessageKey } from 'web/i18n/account-messages';
import { creditsLabel } from 'web/lib/credits';
import { Link } from 'web/lib/router/router';
import { modalClass } from 'web/components/modal-class';

/** What each low-credit modal says and where its button goes (spec: Charge to pricing, Donate to the donation form). */
export function lowCreditContent(body: Pick<InsufficientCreditsBody, 'has_paid'>): { title: AccountMessageKey; text: AccountMessageKey; action: AccountMessageKey; to: string } {
  return lowCreditModal(body) === 'charge'
    ? { title: 'lowCredit.chargeTitle', text: 'lowCredit.chargeText', action: 'lowCredit.charge', to: '/pricing' }
    : { title: 'lowCredit.donateTitle', text: 'lowCredit.donateText', action: 'lowCredit.donate', to: '/pricing#donate' };
}

/**
 * The low-credit modals, opened by an API answer 402 with the insufficient-credits code: the spec's
 * "You don't has enough credit!" with Charge for an account that has paid before, else "You don't
 * have enough credits" with the donation offer. Its own chunk, loaded the first time it opens; its
 * copy is in the page catalogue (web/features/billing/billing.messages.ts), not the entry's.
 */
export function LowCreditModal({ body, onClose }: { body: InsufficientCreditsBody; onClose: () => void }) {
  const { t, tag } = useAccountI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const content = lowCreditContent(body);

  // Where the user was (the button that was pressed): focus goes back there when the modal closes (WCAG 2.4.3).
  const [opener] = useState(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);

  const close = () => dialog.current?.close();
  const closed = () => {
    onClose();
    if (opener && opener !== document.body && opener.isConnected) opener.focus();
  };
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={closed}
      data-testid="low-credit-modal"
      className={`${modalClass} w-[min(26rem,calc(100%-2rem))]`}
    >
      <div className="flex items-start justify-between gap-4">
        <h2 id={titleId} className="text-xl font-bold">
          {t(content.title)}
        </h2>
        <button type="button" onClick={close} aria-label={t('account.close')} className="rounded-full px-2 py-1 text-gray-500 hover:bg-gray-100 dark:hover:bg-gray-800">
          ✕
        </button>
      </div>
      <p className="mt-3 text-gray-700 dark:text-gray-300">
        {t(content.text, { credits: creditsLabel(t, body.balance, tag), count: CREDITS_PER_DONATED_DOLLAR })}
      </p>
      <Link
        to={content.to}
        onClick={close}
        className="mt-6 inline-flex w-full items-center justify-center rounded-full bg-primary-700 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-primary-800 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400"
      >
        {t(content.action)}
      </Link>
    </dialog>
  );
}
