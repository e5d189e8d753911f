import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiSecurity,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppConfig } from 'src/config/app-config';
import type { GuideFeedback, LevelListQuery } from 'src/contracts/levels';
import { guideFeedbackSchema, levelListQuerySchema } from 'src/contracts/levels.schema';
import { AdminGuard } from 'src/modules/auth';
import { LEVEL_NUMBER_PARAM, LevelNumberPipe } from 'src/platform/http/level-number.pipe';
import { jsonSchema } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { LevelsService } from '../../application/levels.service';
import {
  errorSchema,
  guideRequestResultSchema,
  levelDetailSchema,
  levelListSchema,
} from './levels-api.schemas';
import { voterIdOf } from 'src/platform/http/voter-id';

const ERROR = { schema: jsonSchema(errorSchema) };

const limitQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(50) });

@ApiTags('levels')
@Controller('api/v1')
export class LevelsApiController {
  constructor(
    private readonly levels: LevelsService,
    private readonly config: AppConfig,
  ) {}

  private get secureCookies(): boolean {
    return this.config.http.publicUrl.startsWith('https:');
  }

  @Get('levels')
  @ApiOperation({ summary: 'Levels with a guide, filtered and paged (24 a page)' })
  @ApiQuery({ name: 'difficulty', required: false, enum: ['easy', 'medium', 'hard'] })
  @ApiQuery({ name: 'query', required: false, description: 'Words to search the guides for (full-text search)' })
  @ApiQuery({ name: 'page', required: false, example: 1 })
  @ApiOkResponse({ schema: jsonSchema(levelListSchema) })
  @ApiBadRequestResponse(ERROR)
  async list(@Query(new ZodPipe(levelListQuerySchema)) query: LevelListQuery) {
    return levelListSchema.parse(await this.levels.list(query));
  }

  @Get('levels/:number')
  @ApiOperation({ summary: "One level's guide" })
  @ApiParam(LEVEL_NUMBER_PARAM)
  @ApiOkResponse({ schema: jsonSchema(levelDetailSchema) })
  @ApiBadRequestResponse(ERROR)
  @ApiNotFoundResponse({ description: 'The level has no guide yet (LEVELS.NO_GUIDE)', ...ERROR })
  async level(@Param('number', LevelNumberPipe) number: number) {
    return levelDetailSchema.parse(await this.levels.guide(number));
  }

  /** "Request this guide": one vote per browser per level, for levels with no guide yet. */
  @Post('levels/:number/guide_requests')
  @RateLimit(10, 60_000)
  @ApiOperation({ summary: 'Ask for the guide of a level that has none (one vote per browser, by the vid cookie)' })
  @ApiParam(LEVEL_NUMBER_PARAM)
  @ApiCreatedResponse({ schema: jsonSchema(guideRequestResultSchema) })
  @ApiConflictResponse({ description: 'The level already has a guide (LEVELS.HAS_GUIDE)', ...ERROR })
  @ApiTooManyRequestsResponse(ERROR)
  async requestGuide(@Param('number', LevelNumberPipe) number: number, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return guideRequestResultSchema.parse(await this.levels.requestGuide(number, voterIdOf(request, reply, this.secureCookies)));
  }

  /** "Was this helpful?": one answer per browser per level; a second answer replaces the first. */
  @Post('levels/:number/feedback')
  @HttpCode(204)
  @RateLimit(10, 60_000)
  @ApiOperation({ summary: '"Was this helpful?" for a guide (one answer per browser; a new answer replaces it)' })
  @ApiParam(LEVEL_NUMBER_PARAM)
  @ApiBody({ schema: jsonSchema(guideFeedbackSchema) })
  @ApiNoContentResponse({ description: 'Recorded' })
  @ApiNotFoundResponse({ description: 'The level has no guide (LEVELS.NO_GUIDE)', ...ERROR })
  @ApiTooManyRequestsResponse(ERROR)
  async feedback(
    @Param('number', LevelNumberPipe) number: number,
    @Body(new ZodPipe(guideFeedbackSchema)) body: GuideFeedback,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.levels.recordFeedback(number, voterIdOf(request, reply, this.secureCookies), body);
  }

  /** The most requested levels without a guide, for editors. */
  @Get('admin/guide_requests')
  @UseGuards(AdminGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'The most requested levels without a guide (admin)' })
  @ApiOkResponse({ description: '{ data: [{ level, requests, last_requested_at }] }' })
  async wanted(@Query(new ZodPipe(limitQuery)) query: z.infer<typeof limitQuery>) {
    const rows = await this.levels.mostRequested(query.limit);
    return { data: rows.map((r) => ({ level: r.level, requests: r.requests, last_requested_at: r.lastRequestedAt.toISOString() })) };
  }
}
