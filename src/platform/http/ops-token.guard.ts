import { timingSafeEqual, createHash } from 'node:crypto';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import { UnauthorizedError } from 'src/platform/errors/app-error';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Guards ops endpoints with `Authorization: Bearer <OPS_TOKEN>` until accounts with an admin role
 * exist. With no OPS_TOKEN configured the endpoints are closed to everyone.
 */
@Injectable()
export class OpsTokenGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.ops.token;
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    // Hashing first gives equal lengths, so the comparison time says nothing about the token.
    if (expected && given && timingSafeEqual(digest(given), digest(expected))) return true;
    throw new UnauthorizedError('An ops token is required');
  }
}
