import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Answers a request the way the site's pages do. */
export type PageAnswer = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * The site's pages, for routes mounted outside the SSR bridge that must answer some visitors as if
 * they did not exist (ops' queue dashboard: the 404 page for anyone but admins). The bridge sets
 * the answer as it starts, so no module imports it.
 */
@Injectable()
export class SitePages {
  private answer?: PageAnswer;

  answerWith(answer: PageAnswer): void {
    this.answer = answer;
  }

  /** What the site answers this GET or HEAD (an unknown path: the 404 page); Fastify's 404 where this process serves no pages. */
  async serve(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (this.answer) return this.answer(request, reply);
    reply.callNotFound();
  }
}
