import { useI18n } from 'web/i18n/i18n';
import { localizePath } from 'web/i18n/locale';
import { Icon } from './icons';

/**
 * The error page: 'This page could not be found' for a 404, otherwise 'An error occurred'.
 * 'Back Home' is a full navigation to '/', which also clears the error state. Needs no router, so
 * it also serves as the last-resort page when rendering itself failed.
 */
export function ErrorView({ status, message }: { status: number; message?: string }) {
  const { t, locale } = useI18n();
  const title = t(status === 404 ? 'error.notFound' : status === 429 ? 'error.tooMany' : 'error.other');
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:py-32">
      <title>{t(status === 404 ? 'error.notFoundTitle' : status === 429 ? 'error.tooManyTitle' : 'error.otherTitle')}</title>
      <meta name="robots" content="noindex" />
      <p className="text-7xl font-black tracking-tight text-primary-600 sm:text-8xl dark:text-primary-400">{status}</p>
      <h1 className="mt-6 text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      {message && (
        <p data-testid="error-message" className="mt-3 break-all text-gray-600 dark:text-gray-400">
          {message}
        </p>
      )}
      <a
        href={localizePath('/', locale)}
        className="mt-10 inline-flex items-center gap-2 rounded-full bg-primary-700 px-6 py-3 font-semibold text-white shadow-sm transition hover:bg-primary-800 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400"
      >
        <Icon name="arrowLeft" className="size-4" />
        {t('error.backHome')}
      </a>
    </main>
  );
}
