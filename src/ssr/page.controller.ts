import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PageService } from './page.service';

/** The SSR bridge's route: every GET no API route claimed is a page (see PageService). Registered last. */
@ApiExcludeController()
@Controller()
export class PageController {
  constructor(private readonly pages: PageService) {}

  @Get('*')
  page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.pages.serve(request, reply);
  }
}
