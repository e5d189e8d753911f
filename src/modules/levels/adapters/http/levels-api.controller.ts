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
import { parseLevelId, type GuideFeedback, type LevelListQuery } from 'src/contracts/levels';
import { guideFeedbackSchema, levelListQuerySchema } from 'src/contracts/levels.schema';
import { ConflictError, NotFoundError, ValidationError } from 'src/platform/errors/app-error';
import { AdminGuard } from 'src/modules/auth';
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

const NUMBER_PARAM = { name: 'number', description: 'Level number, 1 to the search maximum (635)', example: 27 };
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

  private number(raw: string): number {
    const number = parseLevelId(raw, this.config.public.levels.searchMax);
    if (number === null) {
      throw new ValidationError(`Invalid level number: it must be a whole number from 1 to ${this.config.public.levels.searchMax}`);
    }
    return number;
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
  @ApiParam(NUMBER_PARAM)
  @ApiOkResponse({ schema: jsonSchema(levelDetailSchema) })
  @ApiBadRequestResponse(ERROR)
  @ApiNotFoundResponse({ description: 'The level has no guide yet', ...ERROR })
  async level(@Param('number') raw: string) {
    const level = await this.levels.guide(this.number(raw));
    if (!level) throw new NotFoundError(`Level ${raw} has no guide yet`);
    return levelDetailSchema.parse(level);
  }

  /** "Request this guide": one vote per browser per level, for levels with no guide yet. */
  @Post('levels/:number/guide_requests')
  @RateLimit(10, 60_000)
  @ApiOperation({ summary: 'Ask for the guide of a level that has none (one vote per browser, by the vid cookie)' })
  @ApiParam(NUMBER_PARAM)
  @ApiCreatedResponse({ schema: jsonSchema(guideRequestResultSchema) })
  @ApiConflictResponse({ description: 'The level already has a guide', ...ERROR })
  @ApiTooManyRequestsResponse(ERROR)
  async requestGuide(@Param('number') raw: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const number = this.number(raw);
    if (await this.levels.level(number)) throw new ConflictError(`Level ${number} already has a guide`);
    return guideRequestResultSchema.parse(await this.levels.requestGuide(number, voterIdOf(request, reply, this.secureCookies)));
  }

  /** "Was this helpful?": one answer per browser per level; a second answer replaces the first. */
  @Post('levels/:number/feedback')
  @HttpCode(204)
  @RateLimit(10, 60_000)
  @ApiOperation({ summary: '"Was this helpful?" for a guide (one answer per browser; a new answer replaces it)' })
  @ApiParam(NUMBER_PARAM)
  @ApiBody({ schema: jsonSchema(guideFeedbackSchema) })
  @ApiNoContentResponse({ description: 'Recorded' })
  @ApiNotFoundResponse({ description: 'The level has no guide', ...ERROR })
  @ApiTooManyRequestsResponse(ERROR)
  async feedback(
    @Param('number') raw: string,
    @Body(new ZodPipe(guideFeedbackSchema)) body: GuideFeedback,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const number = this.number(raw);
    if (!(await this.levels.level(number))) throw new NotFoundError(`Level ${number} has no guide yet`);
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
