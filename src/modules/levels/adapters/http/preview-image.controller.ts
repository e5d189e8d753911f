import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { NotFoundError } from 'src/platform/errors/app-error';
import { PreviewImageService } from '../../application/preview-image.service';

/** Social preview images (Open Graph, Twitter cards), 1200x660 PNG. */
@ApiExcludeController()
@Controller('og')
export class PreviewImageController {
  constructor(private readonly images: PreviewImageService) {}

  @Get('default.png')
  async default(@Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.images.default());
  }

  @Get('levels/:file')
  async level(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const number = /^([1-9]\d{0,6})\.png$/.exec(file)?.[1];
    const image = number ? await this.images.forLevel(Number(number)) : null;
    if (!image) throw new NotFoundError('No preview image here');
    send(reply, image);
  }
}

function send(reply: FastifyReply, image: Buffer): void {
  void reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=86400').send(image);
}
