import { Global, Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { AppConfig } from 'src/config/app-config';
import { DatabaseServer } from './database-server';
import { MigrationStatus } from './migration-status.service';
import { mikroOrmOptions } from './mikro-orm.options';
import { SqlRunner } from './sql-runner';

@Module({
  providers: [{ provide: DatabaseServer, inject: [AppConfig], useFactory: (c: AppConfig) => DatabaseServer.open(c) }],
  exports: [DatabaseServer],
})
class DatabaseServerModule {}

/**
 * Applies pending migrations at start when configured (otherwise readiness reports what is pending),
 * and closes the pool before the server stops.
 */
@Injectable()
class DatabaseLifecycle implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Database');

  constructor(
    @Inject(MikroORM) private readonly orm: MikroORM,
    private readonly config: AppConfig,
    private readonly server: DatabaseServer,
    private readonly migrations: MigrationStatus,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.database.migrateOnStart) return;
    const applied = await this.orm.migrator.up();
    this.migrations.upToDate();
    if (applied.length) this.logger.log(`Applied ${applied.length} migration(s) to the ${this.server.kind} database`);
  }

  // Before any onApplicationShutdown hook, so the embedded server stops after the pool is closed.
  async beforeApplicationShutdown(): Promise<void> {
    await this.orm.close();
  }
}

/** MikroORM on PostgreSQL (or embedded PGlite), with a request-scoped EntityManager per HTTP request. */
@Global()
@Module({
  imports: [
    DatabaseServerModule,
    MikroOrmModule.forRootAsync({
      driver: PostgreSqlDriver,
      imports: [DatabaseServerModule],
      inject: [DatabaseServer],
      useFactory: (server: DatabaseServer) => mikroOrmOptions(server.url, server.kind),
    }),
  ],
  providers: [DatabaseLifecycle, SqlRunner, MigrationStatus],
  exports: [DatabaseServerModule, SqlRunner, MigrationStatus],
})
export class DatabaseModule {}
