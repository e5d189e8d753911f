/**
 * Credits' public face: the ledger port other modules spend through (CreditLedger), the credits
 * service, errors and types. No Nest wiring: the module file binds the Postgres ledger.
 */
export { PaymentsEnabledGuard } from './adapters/http/payments-enabled.guard';
export { CreditsService } from './application/credits.service';
export { paymentsEnabled, requirePaymentsEnabled } from './application/payments-enabled';
export { CreditRemindersService } from './application/credit-reminders.service';
export { ReminderStore } from './domain/reminder-store.port';
export { CreditLedger, type Charge, type ChargeState, type CreditLot, type GrantRequest, type HoldRequest, type LedgerEvent } from './domain/credit-ledger.port';
export * from './domain/credits.errors';
