import type { AppConfig } from 'src/config/app-config';
import { PaymentsDisabledError } from '../domain/credits.errors';

/*
 * "Payments off", the one rule (HAS_PAYMENT with HAS_LOGIN, read once in src/config): while off,
 * credits, billing and the image tool answer 404 (their routes through PaymentsEnabledGuard, their
 * services through requirePaymentsEnabled), their pages have no data and the sitemap leaves them out.
 * It lives here rather than in billing: billing grants and takes back credits (CreditLedger), so
 * credits' own routes asking billing would make the two modules import each other; credits is the
 * module every paid feature (billing, the image tool) already imports.
 */

export const paymentsEnabled = (config: Pick<AppConfig, 'payments'>): boolean => config.payments.enabled;

/** The billing calls of the API and the pages refuse while payments are off (the fulfilment of an event already in hand does not ask). */
export function requirePaymentsEnabled(config: Pick<AppConfig, 'payments'>): void {
  if (!paymentsEnabled(config)) throw new PaymentsDisabledError();
}
