import type { FormEvent, ReactNode } from 'react';
import { useT } from 'web/i18n/i18n';
import { Icon } from './icons';

interface Props {
  /** The search landmark's name, and the box's label unless `label` says otherwise. */
  landmark: string;
  label?: string;
  id: string;
  /** Where the plain GET form goes without JavaScript, and the parameter it sends. */
  action: string;
  name: string;
  value: string;
  placeholder: string;
  onSearch: (event: FormEvent<HTMLFormElement>) => void;
  /** id of a message about the query (it marks the box invalid and describes it). */
  messageId?: string;
  className?: string;
  /** Hidden fields kept with the query (a filter). */
  children?: ReactNode;
}

/** A page's own search box (the level list's, the blog's, /search): a GET form that pages navigate in place. */
export function PageSearchForm({ landmark, label = landmark, id, action, name, value, placeholder, onSearch, messageId, className = '', children }: Props) {
  const t = useT();
  return (
    <form role="search" aria-label={landmark} action={action} method="get" onSubmit={onSearch} className={`mt-6 flex gap-2 ${className}`}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="search"
        maxLength={100}
        key={value}
        defaultValue={value}
        placeholder={placeholder}
        aria-invalid={messageId ? true : undefined}
        aria-describedby={messageId}
        className="min-w-0 flex-1 rounded-full border border-gray-300 bg-white px-4 py-2.5 outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 dark:border-gray-700 dark:bg-gray-900"
      />
      {children}
      <button type="submit" className="inline-flex items-center gap-2 rounded-full bg-primary-700 px-5 font-semibold text-white hover:bg-primary-800 dark:bg-primary-500 dark:text-gray-950">
        <Icon name="search" className="size-4" />
        <span className="sr-only sm:not-sr-only">{t('search.submit')}</span>
      </button>
    </form>
  );
}
