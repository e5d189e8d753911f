import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AdminAccess, AdminGuard, SignedInGuard } from './adapters/http/auth.guards';
import { SessionSchema, UserSchema } from './adapters/persistence/auth.entities';
import { MikroOrmSessionRepository } from './adapters/persistence/mikro-orm-session-repository.adapter';
import { MikroOrmUserRepository } from './adapters/persistence/mikro-orm-user-repository.adapter';
import { AccountEvents } from './application/account-events.service';
import { SessionAuthenticator } from './application/session-authenticator.service';
import { SessionRepository } from './domain/session-repository.port';
import { UserRepository } from './domain/user-repository.port';

/**
 * What other modules need from accounts: the route guards, the admin check for pages, the session
 * lookup and account events. Needs only the database and the config (no mail, queue or Redis), so
 * a module that guards its routes, or a CLI that loads it, pulls in nothing else.
 */
@Module({
  imports: [MikroOrmModule.forFeature([UserSchema, SessionSchema])],
  providers: [
    SessionAuthenticator,
    AccountEvents,
    SignedInGuard,
    AdminGuard,
    AdminAccess,
    { provide: UserRepository, useClass: MikroOrmUserRepository },
    { provide: SessionRepository, useClass: MikroOrmSessionRepository },
  ],
  exports: [SessionAuthenticator, AccountEvents, SignedInGuard, AdminGuard, AdminAccess, UserRepository, SessionRepository],
})
export class AuthGuardsModule {}
