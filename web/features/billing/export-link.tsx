import type { MouseEvent } from 'react';
import { secondaryButtonClass } from 'web/components/account-ui';

/** The browser's time zone, named in the export (the server renders the link without it). */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A CSV download of `/api/v1/exports/{what}`, in the visitor's time zone, chosen when clicked. */
export function ExportLink({ what, label }: { what: 'orders' | 'credit-history'; label: string }) {
  const base = `/api/v1/exports/${what}?format=csv`;
  const choose = (event: MouseEvent<HTMLAnchorElement>) => {
    event.currentTarget.href = `${base}&tz=${encodeURIComponent(browserZone())}`;
  };
  return (
    <a href={base} download onClick={choose} className={`${secondaryButtonClass} shrink-0 whitespace-nowrap`} data-testid={`export-${what}`}>
      {label}
    </a>
  );
}
