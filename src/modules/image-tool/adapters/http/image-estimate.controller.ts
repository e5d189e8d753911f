import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { IMAGE_CONVERSIONS, IMAGE_MAX_EXACT_WIDTH, IMAGE_SCALES, type ImageEstimate } from 'src/contracts/images';
import { imageEstimateQuerySchema, imageEstimateSchema } from 'src/contracts/images.schema';
import { PaymentsEnabledGuard } from 'src/modules/credits';
import { jsonSchema } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { ImageToolService } from '../../application/image-tool.service';

const ERROR = { schema: jsonSchema(z.object({ errors: z.array(z.string()), code: z.string() })) };

/**
 * The image tool's estimate, asked before signing in or spending a credit: a controller of its own
 * because the jobs' controller requires a session for every route.
 */
@ApiTags('images')
@Controller('api/v1/images')
@UseGuards(PaymentsEnabledGuard)
export class ImageEstimateController {
  constructor(private readonly images: ImageToolService) {}

  @Get('estimate')
  @RateLimit(120, 60_000)
  @ApiOperation({
    summary:
      'What converting an image of this size would give and take if submitted now: the exact result size, seconds until done (quick, typical, slow; from recent jobs per output megapixel, or defaults) behind the queue, and the live workers',
  })
  @ApiQuery({ name: 'conversion', required: true, enum: [...IMAGE_CONVERSIONS] })
  @ApiQuery({ name: 'width', required: true, description: 'The input image width in pixels', example: 4032 })
  @ApiQuery({ name: 'height', required: true, description: 'The input image height in pixels', example: 3024 })
  @ApiQuery({ name: 'scale', required: false, enum: [...IMAGE_SCALES], description: 'AI conversions: the size asked for (1: the same-size clean-up); not with width_out' })
  @ApiQuery({ name: 'width_out', required: false, description: `AI conversions: an exact result width, 1-${IMAGE_MAX_EXACT_WIDTH} px; not with scale` })
  @ApiOkResponse({ schema: jsonSchema(imageEstimateSchema) })
  @ApiBadRequestResponse({ description: 'A field missing or out of range, scale with width_out, or scale/width_out for a classic style', ...ERROR })
  @ApiTooManyRequestsResponse(ERROR)
  estimate(@Query(new ZodPipe(imageEstimateQuerySchema)) query: z.infer<typeof imageEstimateQuerySchema>, @Res({ passthrough: true }) reply: FastifyReply): Promise<ImageEstimate> {
    // The queue moves: never kept by a cache.
    void reply.header('cache-control', 'no-store');
    return this.images.estimate(query.conversion, query.width, query.height, query.options);
  }
}
