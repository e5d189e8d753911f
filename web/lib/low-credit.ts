import type { InsufficientCreditsBody } from 'src/contracts/billing';
import { INSUFFICIENT_CREDITS } from 'src/contracts/insufficient-credits';

/**
 * The low-credit modals' trigger: any API answer 402 with the insufficient-credits code (see
 * apiRequest) puts its body here, and the layout then loads and opens the modal.
 */
const CODE = INSUFFICIENT_CREDITS;

export const isInsufficientCredits = (status: number, body: unknown): body is InsufficientCreditsBody =>
  status === 402 && typeof body === 'object' && body !== null && (body as { code?: unknown }).code === CODE;

let current: InsufficientCreditsBody | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const lowCreditStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => current,
  serverGet: (): InsufficientCreditsBody | null => null,
  close() {
    current = null;
    emit();
  },
};

export function showLowCredit(body: InsufficientCreditsBody): void {
  current = body;
  emit();
}
