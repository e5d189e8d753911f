import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AppConfig } from 'src/config/app-config';
import { MailModule } from 'src/platform/mail/mail.module';
import { QueueModule } from 'src/platform/queue/queue.module';
import { RedisModule } from 'src/platform/redis/redis.module';
import { GoogleController } from './adapters/google/google.controller';
import { GoogleStrategy } from './adapters/google/google.strategy';
import { OAuthStateCookie } from './adapters/google/oauth-state';
import { AuthController } from './adapters/http/auth.controller';
import { OneTimeTokenSchema } from './adapters/persistence/auth.entities';
import { AuthLinkRequestProcessor } from './adapters/queue/auth-link-request.processor';
import { MikroOrmOneTimeTokenRepository } from './adapters/persistence/mikro-orm-one-time-token-repository.adapter';
import { Argon2PasswordHasher } from './adapters/security/argon2-password-hasher.adapter';
import { RedisOrMemoryAttemptLimiter } from './adapters/security/redis-or-memory-attempt-limiter.adapter';
import { AuthService } from './application/auth.service';
import { AuthGuardsModule } from './auth-guards.module';
import { AttemptLimiter } from './domain/attempt-limiter.port';
import { OneTimeTokenRepository } from './domain/one-time-token-repository.port';
import { PasswordHasher } from './domain/password-hasher.port';

/**
 * Accounts: email and password with confirmation, sessions, password reset, Google sign-in. Mail
 * sends the links (requested links through the 'auth.link-request' job), Redis shares the attempt counters. Other modules guard their routes with
 * AuthGuardsModule, which needs none of that.
 */
@Module({
  imports: [MikroOrmModule.forFeature([OneTimeTokenSchema]), AuthGuardsModule, MailModule, QueueModule, RedisModule, PassportModule, JwtModule.register({})],
  controllers: [AuthController, GoogleController],
  providers: [
    AuthService,
    AuthLinkRequestProcessor,
    OAuthStateCookie,
    // Registered with passport only when Google sign-in is configured.
    {
      provide: GoogleStrategy,
      inject: [AppConfig, OAuthStateCookie],
      useFactory: (config: AppConfig, state: OAuthStateCookie) => (config.auth.google ? new GoogleStrategy(config, state) : null),
    },
    { provide: OneTimeTokenRepository, useClass: MikroOrmOneTimeTokenRepository },
    { provide: PasswordHasher, useClass: Argon2PasswordHasher },
    { provide: AttemptLimiter, useClass: RedisOrMemoryAttemptLimiter },
  ],
  exports: [AuthService],
})
export class AuthModule {}
