import type { Abstract, ModuleMetadata, Provider, Type } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { AppConfig, loadConfig } from 'src/config/app-config';
import { ConfigModule } from 'src/config/config.module';
import { APP_ERROR_FILTER } from 'src/platform/errors/app-error.filter';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { configureHttpPlatform, FASTIFY_OPTIONS } from '../http-platform';

/** The settings of an app under test: accounts and payments on (the test checkout), one admin address. */
export const ADMIN_EMAIL = 'admin@example.com';
export const testConfig = (env: Record<string, string> = {}): AppConfig =>
  loadConfig({}, { NODE_ENV: 'test', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', PUBLIC_URL: 'https://guides.example', ADMIN_EMAILS: ADMIN_EMAIL, ...env });

export interface ControllerAppOptions {
  controllers: Type[];
  /** The real application services, and the ports bound to in-memory fakes (`{ provide: Port, useValue: fake }`). */
  providers?: Provider[];
  imports?: ModuleMetadata['imports'];
  config?: AppConfig;
}

/**
 * Controllers in process, for their specs: a Nest testing module with the controllers, their real
 * services and fakes for the ports, served by Fastify with the web process's own HTTP pipeline
 * (FASTIFY_OPTIONS, configureHttpPlatform: JSON-only writes, body limits, cookies, uploads, rate
 * limits counted in memory; AppErrorFilter mapping codes to statuses; the raw body for webhooks),
 * asked with Fastify's inject: no build, no port, no browser. Guards are the real ones.
 */
export class ControllerHarness {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly config: AppConfig,
  ) {}

  static async start(options: ControllerAppOptions): Promise<ControllerHarness> {
    const config = options.config ?? testConfig();
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config), ...(options.imports ?? [])],
      controllers: options.controllers,
      providers: [...(options.providers ?? []), APP_ERROR_FILTER],
    }).compile();
    // As createWebApp: Stripe's webhook verifies the exact bytes (request.rawBody). Nest's own logs stay quiet.
    const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter({ ...FASTIFY_OPTIONS }), { rawBody: true, logger: false });
    // No REDIS_URL in a spec's config: the rate limits count in memory, as the web process does while Redis is away.
    await configureHttpPlatform(app, config, new RedisConnection(config));
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    return new ControllerHarness(app, config);
  }

  get<T>(token: Type<T> | Abstract<T>): T {
    return this.app.get(token);
  }

  inject(options: InjectOptions): Promise<LightMyRequestResponse> {
    return this.app.inject(options);
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

/** What a spec holds of its app: it starts at the first request, so a test's own set-up comes first. */
export interface Controllers {
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A provider of the app (its real service, a guard), starting it if need be. */
  get<T>(token: Type<T> | Abstract<T>): Promise<T>;
}

/**
 * A fresh app for every test of the calling describe block, built by `options` when the test first
 * asks it (so the test's beforeEach, nested ones too, and the test itself may set up the fakes and
 * the config first): `const api = useControllers(() => ({ controllers, providers }))`, then
 * `await api.inject(...)` inside the tests. Closed after each test.
 */
export function useControllers(options: () => ControllerAppOptions | Promise<ControllerAppOptions>): Controllers {
  let current: Promise<ControllerHarness> | undefined;
  const app = () => (current ??= Promise.resolve(options()).then((o) => ControllerHarness.start(o)));
  afterEach(async () => {
    const started = current;
    current = undefined;
    await (await started)?.close();
  });
  return {
    inject: async (injectOptions) => (await app()).inject(injectOptions),
    get: async (token) => (await app()).get(token),
  };
}

/** The API's error body: `{ errors, code }`. */
export const errorOf = (response: LightMyRequestResponse): { errors: string[]; code: string } => response.json();
