import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useAccountI18n } from 'web/i18n/account-messages';
import { Glyph, Source } from 'web/features/image-tool/image-tool-common';

/** The Upload and Image URL tabs (ARIA tabs: arrow keys, Home and End move between them). */
export function SourceTabs({ source, onSource, upload, url }: { source: Source; onSource: (source: Source) => void; upload: ReactNode; url: ReactNode }) {
  const { t } = useAccountI18n();
  const id = useId();
  const tabs: { value: Source; label: string }[] = [
    { value: 'upload', label: t('image.tabUpload') },
    { value: 'url', label: t('image.tabUrl') },
  ];
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onSource(tabs[next]!.value);
    refs.current[next]?.focus();
  };
  return (
    <div>
      <div role="tablist" aria-label={t('image.source')} className="inline-flex rounded-full bg-gray-100 p-1 dark:bg-gray-800">
        {tabs.map((tab, index) => (
          <button
            key={tab.value}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.value}`}
            aria-selected={source === tab.value}
            aria-controls={`${id}-panel-${tab.value}`}
            tabIndex={source === tab.value ? 0 : -1}
            onClick={() => onSource(tab.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
            data-testid={`image-tab-${tab.value}`}
            className="inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold text-gray-600 transition hover:text-gray-900 aria-selected:bg-white aria-selected:text-gray-900 aria-selected:shadow-sm dark:text-gray-300 dark:hover:text-white dark:aria-selected:bg-gray-950 dark:aria-selected:text-white"
          >
            <Glyph name={tab.value === 'upload' ? 'upload' : 'link'} className="size-4" />
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.value}
          role="tabpanel"
          id={`${id}-panel-${tab.value}`}
          aria-labelledby={`${id}-tab-${tab.value}`}
          hidden={source !== tab.value}
          className="mt-4"
        >
          {tab.value === 'upload' ? upload : url}
        </div>
      ))}
    </div>
  );
}
