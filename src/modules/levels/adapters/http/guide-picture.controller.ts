import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { NotFoundError } from 'src/platform/errors/app-error';
import { GuidePictureStore } from '../../domain/guide-picture.port';

/** A step picture's copy: the name is its content's hash, so it never changes and may be kept a year. */
@ApiExcludeController()
@Controller('guide-images')
export class GuidePictureController {
  constructor(private readonly pictures: GuidePictureStore) {}

  @Get(':file')
  async picture(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const copy = /^[0-9a-f]{12}-\d{2,4}\.(avif|webp)$/.test(file) ? await this.pictures.find(file) : null;
    if (!copy) throw new NotFoundError('No guide picture here');
    void reply.header('content-type', copy.contentType).header('cache-control', 'public, max-age=31536000, immutable').send(copy.bytes);
  }
}
