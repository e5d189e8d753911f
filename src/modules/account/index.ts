/** The account's public face: its service and errors. No Nest wiring. */
export { AccountService } from './application/account.service';
export * from './domain/account.errors';
