import type { AppConfig } from 'src/config/app-config';
import { PaymentsDisabledError } from 'src/modules/credits';

/** The billing calls of the API and the pages refuse while payments are off (the fulfilment of an event already in hand does not ask). */
export function requirePaymentsEnabled(config: AppConfig): void {
  if (!config.payments.enabled) throw new PaymentsDisabledError();
}
