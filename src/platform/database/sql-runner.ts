import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';

/**
 * Plain SQL on the application's connection pool, inside whatever transaction is current
 * (MikroORM's transaction context), for adapters whose point is row locks and conditional updates
 * (the credit ledger, orders). `?` marks a parameter; timestamps come back as strings.
 */
@Injectable()
export class SqlRunner {
  constructor(private readonly em: EntityManager) {}

  query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.em.execute<T[]>(sql, params);
  }

  /** Runs `work` in a transaction, or in a savepoint of the current one: its queries join it. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.em.transactional(() => work());
  }
}
