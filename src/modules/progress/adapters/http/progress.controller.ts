import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiSecurity,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppConfig } from 'src/config/app-config';
import type { ProgressExport, ProgressSyncInput, ProgressSyncResult } from 'src/contracts/progress-sync';
import { progressExportSchema, progressMarkInputSchema, progressSyncInputSchema, progressSyncResultSchema } from 'src/contracts/progress.schema';
import { SignedInGuard } from 'src/modules/auth';
import { LEVEL_NUMBER_PARAM, LevelNumberPipe } from 'src/platform/http/level-number.pipe';
import { ApiJsonBody, ApiJsonResponse, jsonSchema } from 'src/platform/http/openapi-schema';
import { voterIdOf } from 'src/platform/http/voter-id';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { ProgressService } from '../../application/progress.service';

const ERROR = { schema: jsonSchema(z.object({ errors: z.array(z.string()), code: z.string() })) };

/**
 * A signed-in player's progress (merge a browser's marks in, export, clear), and the anonymous
 * solved/stuck tap a guide page sends, counted once per browser like "Was this helpful?".
 */
@ApiTags('progress')
@Controller('api/v1')
export class ProgressController {
  constructor(
    private readonly progress: ProgressService,
    private readonly config: AppConfig,
  ) {}

  @Post('me/progress')
  @HttpCode(200)
  @RateLimit(60, 60_000)
  @UseGuards(SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({
    summary: "Merge this browser's progress into the account (per level the later change wins) and answer the account's",
    description:
      "The first sync of a browser with the account sends all its entries and gets all the account's. Later ones send `since` (the last answer's `cursor`) and only the entries changed since; the answer then holds only what changed after that cursor, and the levels sent. " +
      "Entries carry their age in milliseconds, not a time, so a browser's wrong clock does not matter. At most 500 a request (send more in batches); levels past the game's last are left out. " +
      'A `since` that is not this account\'s answers 409 PROGRESS.SYNC_RESTART: sync again without it.',
  })
  @ApiJsonBody(progressSyncInputSchema)
  @ApiJsonResponse(progressSyncResultSchema)
  @ApiBadRequestResponse(ERROR)
  @ApiConflictResponse({ description: 'Not this account\'s cursor: send everything, without `since` (PROGRESS.SYNC_RESTART)', ...ERROR })
  @ApiUnauthorizedResponse(ERROR)
  @ApiTooManyRequestsResponse(ERROR)
  sync(@Req() request: FastifyRequest, @Body(new ZodPipe(progressSyncInputSchema)) body: ProgressSyncInput): Promise<ProgressSyncResult> {
    return this.progress.sync(request.auth!.user.id, body);
  }

  @Get('me/progress')
  @RateLimit(60, 60_000)
  @UseGuards(SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: "The account's progress with dates (the player's export)" })
  @ApiJsonResponse(progressExportSchema)
  @ApiUnauthorizedResponse(ERROR)
  export(@Req() request: FastifyRequest): Promise<ProgressExport> {
    return this.progress.export(request.auth!.user.id);
  }

  @Delete('me/progress')
  @HttpCode(204)
  @RateLimit(30, 60_000)
  @UseGuards(SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: "Clear the account's progress (other browsers drop their older marks at their next sync)" })
  @ApiNoContentResponse({ description: 'Cleared' })
  @ApiUnauthorizedResponse(ERROR)
  async clear(@Req() request: FastifyRequest): Promise<void> {
    await this.progress.clear(request.auth!.user.id);
  }

  @Post('levels/:number/progress')
  @HttpCode(204)
  @RateLimit(10, 60_000)
  @ApiOperation({ summary: '"Solved it" / "Still stuck" on a guide, counted once per browser (by the vid cookie); never tied to an account' })
  @ApiParam(LEVEL_NUMBER_PARAM)
  @ApiJsonBody(progressMarkInputSchema)
  @ApiNoContentResponse({ description: 'Counted' })
  @ApiBadRequestResponse({ description: 'A bad level number or body, or a ladder the guide does not have (PROGRESS.UNKNOWN_LADDER)', ...ERROR })
  @ApiNotFoundResponse({ description: 'The level has no guide (PROGRESS.NO_GUIDE)', ...ERROR })
  @ApiTooManyRequestsResponse(ERROR)
  async mark(
    @Param('number', LevelNumberPipe) number: number,
    @Body(new ZodPipe(progressMarkInputSchema)) body: z.infer<typeof progressMarkInputSchema>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.progress.mark(number, voterIdOf(request, reply, this.config.http.publicUrl.startsWith('https:')), body.state, body.ladders);
  }
}
