/** Redis at maxmemory with `noeviction` refuses writes with "OOM command not allowed when used memory > 'maxmemory'". */
export const isRedisOutOfMemory = (error: unknown): boolean => error instanceof Error && /^OOM command not allowed/.test(error.message);

/** A Redis failure as /readyz, /admin and the log name it: out of memory said as such, anything else 'down'. */
export function describeRedisError(error: unknown): string {
  if (isRedisOutOfMemory(error)) return 'out of memory: writes refused (OOM command not allowed, maxmemory reached); raise maxmemory or free keys';
  return 'down';
}

/** A failed Redis call for a log line: out of memory named as such, else the client's message (an address and port, no secret). */
export function redisFailureDetail(error: unknown): string {
  if (isRedisOutOfMemory(error)) return describeRedisError(error);
  return error instanceof Error ? error.message : String(error);
}
