import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AppConfig } from 'src/config/app-config';
import { GoogleController } from './adapters/google/google.controller';
import { GoogleStrategy } from './adapters/google/google.strategy';
import { OAuthStateCookie } from './adapters/google/oauth-state';
import { AuthController } from './adapters/http/auth.controller';
import { AdminGuard, SignedInGuard } from './adapters/http/auth.guards';
import { OneTimeTokenSchema, SessionSchema, UserSchema } from './adapters/persistence/auth.entities';
import { MikroOrmOneTimeTokenRepository, MikroOrmSessionRepository, MikroOrmUserRepository } from './adapters/persistence/mikro-orm-auth.repositories';
import { Argon2PasswordHasher } from './adapters/security/argon2.password-hasher';
import { RedisOrMemoryAttemptLimiter } from './adapters/security/attempt-limiter';
import { AccountEvents } from './application/account-events.service';
import { AuthService } from './application/auth.service';
import { AttemptLimiter, OneTimeTokenRepository, PasswordHasher, SessionRepository, UserRepository } from './domain/ports';

/** Accounts: email and password with confirmation, sessions, password reset, Google sign-in; the guards other modules use. */
@Module({
  imports: [MikroOrmModule.forFeature([UserSchema, SessionSchema, OneTimeTokenSchema]), PassportModule, JwtModule.register({})],
  controllers: [AuthController, GoogleController],
  providers: [
    AuthService,
    AccountEvents,
    OAuthStateCookie,
    // Registered with passport only when Google sign-in is configured.
    {
      provide: GoogleStrategy,
      inject: [AppConfig, OAuthStateCookie],
      useFactory: (config: AppConfig, state: OAuthStateCookie) => (config.auth.google ? new GoogleStrategy(config, state) : null),
    },
    SignedInGuard,
    AdminGuard,
    { provide: UserRepository, useClass: MikroOrmUserRepository },
    { provide: SessionRepository, useClass: MikroOrmSessionRepository },
    { provide: OneTimeTokenRepository, useClass: MikroOrmOneTimeTokenRepository },
    { provide: PasswordHasher, useClass: Argon2PasswordHasher },
    { provide: AttemptLimiter, useClass: RedisOrMemoryAttemptLimiter },
  ],
  exports: [AuthService, AccountEvents, SignedInGuard, AdminGuard],
})
export class AuthModule {}

/** The guards other modules put on their routes. */
export { AdminGuard, SignedInGuard } from './adapters/http/auth.guards';
export { AccountEvents } from './application/account-events.service';
export { AuthService } from './application/auth.service';
