import { RequestContext, type MikroORM } from '@mikro-orm/core';

/** A MikroORM stand-in for JobProcessors: each context it opens is a fork with a number of its own. */
export function numberedForks(): MikroORM {
  let forks = 0;
  const em = { name: 'default', fork: () => ({ name: 'default', fork: em.fork, id: ++forks }) };
  return { em } as unknown as MikroORM;
}

/** The number of the fork whose context the caller runs in; undefined outside any. */
export const currentFork = (): number | undefined => (RequestContext.getEntityManager() as unknown as { id?: number } | undefined)?.id;
