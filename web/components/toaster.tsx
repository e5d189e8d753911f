import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useT } from 'web/i18n/i18n';
import { toastStore, type Toast } from 'web/lib/toasts';
import { Icon } from './icons';

/** Shows the toasts, announced to screen readers; each closes after its timeout, paused while hovered. */
export function Toaster() {
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.list, toastStore.serverList);
  return (
    <div aria-live="polite" role="status" className="toast-stack">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const remaining = useRef(toast.timeout);
  const started = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const t = useT();

  const start = () => {
    started.current = Date.now();
    timer.current = setTimeout(() => toastStore.dismiss(toast.id), remaining.current);
  };
  const pause = () => {
    clearTimeout(timer.current);
    remaining.current -= Date.now() - started.current;
  };

  useEffect(() => {
    start();
    return () => clearTimeout(timer.current);
    // The timer belongs to this toast for its whole life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const colours =
    toast.color === 'green'
      ? 'border-primary-200 bg-primary-50 text-primary-900 dark:border-primary-800 dark:bg-primary-950 dark:text-primary-100'
      : 'border-red-200 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100';
  return (
    <div
      data-toast={toast.color}
      onMouseEnter={pause}
      onMouseLeave={start}
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-lg ${colours}`}
    >
      <Icon name={toast.icon} className="mt-0.5 size-5 shrink-0" />
      <p className="flex-1 text-sm font-medium break-words">{toast.title}</p>
      {toast.closeButton && (
        <button type="button" aria-label={t('toast.close')} onClick={() => toastStore.dismiss(toast.id)} className="rounded p-0.5 opacity-70 hover:opacity-100">
          <Icon name="close" className="size-4" />
        </button>
      )}
    </div>
  );
}
