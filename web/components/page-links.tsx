import { usePageI18n } from 'web/i18n/page-messages';
import { pageWindow } from 'web/lib/pagination';
import { Link } from 'web/lib/router/router';

/** A list's numbered page links: the first, the last and a window around the current page (see pageWindow). */
export function PageLinks({ page, pageCount, hrefFor, className = 'mt-8' }: { page: number; pageCount: number; hrefFor: (page: number) => string; className?: string }) {
  const { t } = usePageI18n();
  const links = pageWindow(page, pageCount);
  if (!links.length) return null;
  return (
    <nav aria-label={t('pagination.label')} className={`${className} flex flex-wrap items-center justify-center gap-1`}>
      {links.map((link, i) =>
        link === 'gap' ? (
          <span key={`gap-${i}`} aria-hidden="true" className="flex size-10 items-center justify-center text-sm text-gray-600 dark:text-gray-400">
            …
          </span>
        ) : (
          <Link
            key={link}
            to={hrefFor(link)}
            aria-current={link === page ? 'page' : undefined}
            aria-label={t('pagination.page', { page: link })}
            className="flex size-10 items-center justify-center rounded-full text-sm font-semibold text-gray-700 hover:bg-gray-100 aria-[current=page]:bg-primary-700 aria-[current=page]:text-white dark:text-gray-300 dark:hover:bg-gray-800 dark:aria-[current=page]:bg-primary-500 dark:aria-[current=page]:text-gray-950"
          >
            {link}
          </Link>
        ),
      )}
    </nav>
  );
}
