import { Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Icon } from 'web/components/icons';
import { I18nProvider, loadMessages } from 'web/i18n/i18n';
import { usePageI18n } from 'web/i18n/page-messages';

/**
 * "A new version is available · Reload": a bar at the bottom of the screen, in a live region
 * (role=status, announced politely, focus left where it is), with the Reload button and a close
 * button that hides it until the next page load.
 */
export function UpdatePrompt({ open, onReload }: { open: boolean; onReload: () => void }) {
  const { t } = usePageI18n();
  const [closed, setClosed] = useState(false);
  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4 sm:justify-start sm:pl-6">
      {open && !closed && (
        <div className="pointer-events-auto flex w-full max-w-md items-center gap-2 rounded-xl border border-gray-200 bg-white py-2 pr-2 pl-4 text-gray-900 shadow-lg dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100">
          <p className="text-sm font-medium">
            {t('update.available')} <span aria-hidden="true">·</span>
          </p>
          <button
            type="button"
            onClick={onReload}
            className="rounded-lg bg-primary-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-primary-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-700 dark:bg-primary-400 dark:text-gray-950 dark:hover:bg-primary-300 dark:focus-visible:outline-primary-400"
          >
            {t('update.reload')}
          </button>
          <button
            type="button"
            aria-label={t('toast.close')}
            onClick={() => setClosed(true)}
            className="ml-auto rounded-lg p-2 text-gray-500 hover:bg-gray-100 hover:text-gray-900 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-white"
          >
            <Icon name="close" className="size-4" />
          </button>
        </div>
      )}
    </div>
  );
}

/** Time for assistive technology to see the empty live region before its words arrive: a region that appears already filled is often not announced. */
const ANNOUNCE_DELAY_MS = 100;

/** Mounts the prompt in a React root of its own, in the page's language (web/pwa/pwa-client.ts calls it once). */
export async function mountUpdatePrompt(onReload: () => void): Promise<void> {
  const locale = document.documentElement.lang || 'en';
  const messages = await loadMessages(locale);
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  const render = (open: boolean) =>
    root.render(
      <I18nProvider locale={locale} messages={messages}>
        <Suspense fallback={null}>
          <UpdatePrompt open={open} onReload={onReload} />
        </Suspense>
      </I18nProvider>,
    );
  render(false);
  setTimeout(() => render(true), ANNOUNCE_DELAY_MS);
}
