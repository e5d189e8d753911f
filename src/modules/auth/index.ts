/**
 * Accounts' public face: what other modules may import (route guards, the admin check for pages,
 * the session lookup, account events, errors and types). Nest wiring stays in the module files.
 * Guards are here because other modules' controllers put them on their routes.
 */
export { AdminAccess, AdminGuard, isSiteOrigin, SignedInGuard, type AuthContext } from './adapters/http/auth.guards';
export { AccountEvents } from './application/account-events.service';
export { AuthService } from './application/auth.service';
export { SessionAuthenticator } from './application/session-authenticator.service';
export * from './domain/auth.errors';
export { SessionRepository } from './domain/session-repository.port';
export { UserRepository } from './domain/user-repository.port';
export { normalizeEmail, type User, type UserView } from './domain/user';
