import { Logger } from '@nestjs/common';
import { type MikroORM, RequestContext } from '@mikro-orm/core';

/**
 * Runs a content import at start, in a unit of work of its own. A malformed file is logged and the
 * site keeps serving what it has: imports are all or nothing, so nothing is half-imported.
 */
export async function importAtStart(what: string, orm: MikroORM, run: () => Promise<unknown>): Promise<void> {
  try {
    await RequestContext.create(orm.em, run);
  } catch (error) {
    new Logger('ContentImport').error(`${what} not imported: ${(error as Error).message}`);
  }
}
