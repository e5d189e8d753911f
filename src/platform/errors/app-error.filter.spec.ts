import { HttpException } from '@nestjs/common';
import { DriverException } from '@mikro-orm/core';
import { NotFoundError, ValidationError } from './app-error';
import { toErrorResponse } from './app-error.filter';

describe('toErrorResponse', () => {
  it('maps each error kind to its status, keeping the stable code', () => {
    expect(toErrorResponse(new ValidationError('email: too long'))).toEqual({
      status: 400,
      body: { errors: ['email: too long'], code: 'REQUEST.INVALID' },
      unexpected: false,
    });
    expect(toErrorResponse(new NotFoundError('nope')).status).toBe(404);
  });

  it('answers unknown errors with a generic message and no detail', () => {
    const error = new Error('relation "users" does not exist at /srv/app/src/x.ts:12');
    const { status, body, unexpected } = toErrorResponse(error);
    expect(status).toBe(500);
    expect(body).toEqual({ errors: ['An error occurred'], code: 'INTERNAL' });
    expect(unexpected).toBe(true);
  });

  it('answers a database outage with 503 and Retry-After, not as a server error', () => {
    const lost = new DriverException(new Error('Connection terminated unexpectedly'));
    expect(toErrorResponse(lost)).toEqual({
      status: 503,
      body: { errors: ['The site is briefly unavailable; try again in a few seconds'], code: 'DATABASE.UNAVAILABLE' },
      unexpected: false,
      retryAfterSeconds: 5,
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
    expect(toErrorResponse(refused).body.code).toBe('DATABASE.UNAVAILABLE');
  });

  it('answers a full disk on any file write with 507 STORAGE.FULL, never 500, also when a store wrapped the error', async () => {
    // A real ENOSPC from the file system: /dev/full takes no byte.
    const { writeFile } = await import('node:fs/promises');
    const full = await writeFile('/dev/full', 'x').catch((error: unknown) => error);
    expect(full).toMatchObject({ code: 'ENOSPC' });
    expect(toErrorResponse(full)).toEqual({
      status: 507,
      body: { errors: ['The server is out of storage space; try again later'], code: 'STORAGE.FULL' },
      unexpected: false,
      retryAfterSeconds: 60,
    });
    const wrapped = new Error('Could not store the upload', { cause: Object.assign(new Error('quota'), { code: 'EDQUOT' }) });
    expect(toErrorResponse(wrapped).body.code).toBe('STORAGE.FULL');
  });

  it('passes on the safe 4xx errors of Fastify and Nest', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), { statusCode: 413 });
    expect(toErrorResponse(tooLarge)).toMatchObject({ status: 413, body: { errors: ['Request body is too large'] } });
    const limited = Object.assign(new Error('Too many requests, please try again later.'), { statusCode: 429 });
    expect(toErrorResponse(limited).body.code).toBe('REQUEST.RATE_LIMITED');
    expect(toErrorResponse(new HttpException('Gateway', 502)).body.errors).toEqual(['An error occurred']);
  });
});
