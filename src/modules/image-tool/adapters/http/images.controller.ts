import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { pageQuerySchema } from 'src/contracts/billing.schema';
import type { ImageJobView } from 'src/contracts/images';
import { imageJobFieldsSchema, imageUrlJobSchema } from 'src/contracts/images.schema';
import { SignedInGuard } from 'src/modules/auth';
import { PaymentsEnabledGuard } from 'src/modules/credits';
import { AppError, ValidationError } from 'src/platform/errors/app-error';
import { ApiJsonBody } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { ImageToolService, type ImageSubmission } from '../../application/image-tool.service';
import { RESULT_EXTENSIONS, type ResultFormat } from '../../domain/image-job';

const FORMAT_OF: Record<string, ResultFormat> = { 'image/png': 'png', 'image/webp': 'webp', 'image/jpeg': 'jpeg' };

/** The image tool's API: submit a conversion (upload or URL), follow it, and fetch its files. */
@ApiTags('images')
@ApiSecurity('session')
@Controller('api/v1/images')
@UseGuards(PaymentsEnabledGuard, SignedInGuard)
export class ImagesController {
  constructor(private readonly images: ImageToolService) {}

  @Post()
  @HttpCode(202)
  @RateLimit(20, 60_000)
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiOperation({
    summary:
      'Convert an image for 1 credit: multipart (text fields conversion, scale, width, noise, format, quality, and the file; at most 10 MB) or JSON {conversion, url, scale?, width?, noise?, format?, quality?}. ' +
      'scale (1, 1.5, 2, 3, 4) or width (exact, up to 4096 px) and noise (none, low, medium, high, auto) are for AI conversions; format is auto, png, webp or jpeg, quality 1-100 (JPEG and WebP). ' +
      '202 with the new job; 200 with an earlier job when the same image (bytes) was uploaded with the same settings in the last 24 hours: `repeat` and credits 0 when it had succeeded, as it stands while it runs (nothing held). ' +
      '402 CREDITS.INSUFFICIENT when the balance is short; 400 IMAGES.WOULD_NOT_ENLARGE for an enlargement of an upload past 4096 px (URL jobs fail with it, credit returned); at most 3 unfinished jobs.',
  })
  @ApiJsonBody(imageUrlJobSchema)
  async submit(@Req() request: FastifyRequest, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<ImageJobView> {
    const submission = request.isMultipart() ? await readUpload(request) : urlSubmission(body);
    const { job, earlier } = await this.images.submit(request.auth!.user.id, submission);
    if (earlier) void reply.status(200);
    return job;
  }

  @Get()
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: "The user's image jobs, newest first, 20 a page" })
  list(@Req() request: FastifyRequest, @Query(new ZodPipe(pageQuerySchema)) query: { page: number }, @Res({ passthrough: true }) reply: FastifyReply) {
    void reply.header('cache-control', 'no-store');
    return this.images.list(request.auth!.user.id, query.page);
  }

  @Get(':id')
  @RateLimit(240, 60_000)
  @ApiOperation({ summary: 'One job: its status, its place in the queue and an estimate while it waits, its sizes when done' })
  job(@Req() request: FastifyRequest, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<ImageJobView> {
    void reply.header('cache-control', 'no-store');
    return this.images.job(request.auth!.user.id, id);
  }

  @Get(':id/:file')
  @RateLimit(240, 60_000)
  @ApiOperation({ summary: "A finished job's file: preview (the input as converted, PNG), result (PNG, WebP or JPEG: the job's result_format; ?download=1 to save it) or thumbnail (JPEG); owner only" })
  async file(
    @Req() request: FastifyRequest,
    @Param('id') id: string,
    @Param('file') which: string,
    @Query(new ZodPipe(z.strictObject({ download: z.enum(['1']).optional() }))) query: { download?: '1' },
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (which !== 'preview' && which !== 'result' && which !== 'thumbnail') throw new ValidationError('The file is preview, result or thumbnail.');
    const { bytes, contentType, job } = await this.images.file(request.auth!.user.id, id, which);
    const format = FORMAT_OF[contentType] ?? 'png';
    const name = `${job.conversion}-${job.id.slice(0, 8)}.${RESULT_EXTENSIONS[format]}`;
    // A fixed type, never sniffed, only for its owner, never kept by shared caches.
    await reply
      .header('content-type', `image/${format}`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=3600')
      .header('content-disposition', `${query.download ? 'attachment' : 'inline'}; filename="${name}"`)
      .send(bytes);
  }
}

function urlSubmission(body: unknown): ImageSubmission {
  return new ZodPipe(imageUrlJobSchema).transform(body);
}

const FIELDS = new Set(['conversion', 'scale', 'width', 'noise', 'format', 'quality']);

/** The multipart form: the text fields of `imageJobFieldsSchema` and one `file`; the plugin refuses a file over 10 MB with 413. */
async function readUpload(request: FastifyRequest): Promise<ImageSubmission> {
  const fields: Record<string, unknown> = {};
  let upload: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || upload) throw new ValidationError('Send one image in the field "file".');
        upload = await part.toBuffer();
      } else if (FIELDS.has(part.fieldname)) {
        if (part.fieldname in fields) throw new ValidationError(`Send the field "${part.fieldname}" once.`);
        fields[part.fieldname] = part.value;
      } else {
        throw new ValidationError(`Unknown field "${part.fieldname.slice(0, 40)}": the form takes ${[...FIELDS].join(', ')} and file.`);
      }
    }
  } catch (error) {
    // Our refusals and the plugin's limits (413 and the like) carry their answer; busboy's parse
    // errors of a malformed or cut-short form ('Unexpected end of form') carry none.
    if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw new ValidationError('The form could not be read: send a complete multipart form.');
  }
  if (!upload?.length) throw new ValidationError('Choose an image to upload.');
  return { ...new ZodPipe(imageJobFieldsSchema).transform(fields), upload };
}
