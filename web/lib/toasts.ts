/** Notifications (spec: id, title, timeout, color, icon, closeButton). A tiny store any code can push to. */
export interface Toast {
  id: number;
  title: string;
  /** Milliseconds before it closes by itself (spec: 2000); paused while hovered. */
  timeout: number;
  color: 'green' | 'red';
  icon: 'check' | 'close';
  closeButton: boolean;
}

export const TOAST_TIMEOUT_MS = 2000;

let nextId = 1;
/** The server renders no toasts; one constant array keeps useSyncExternalStore stable. */
const NO_TOASTS: Toast[] = [];
let toasts: Toast[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const toastStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  list: () => toasts,
  serverList: () => NO_TOASTS,
  dismiss(id: number) {
    toasts = toasts.filter((toast) => toast.id !== id);
    emit();
  },
};

export function notify(title: string, kind: 'success' | 'error' = 'success'): number {
  const toast: Toast = {
    id: nextId++,
    title,
    timeout: TOAST_TIMEOUT_MS,
    color: kind === 'success' ? 'green' : 'red',
    icon: kind === 'success' ? 'check' : 'close',
    closeButton: true,
  };
  toasts = [...toasts, toast];
  emit();
  return toast.id;
}
