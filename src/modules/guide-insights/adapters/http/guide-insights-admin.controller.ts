import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { DEFAULT_DIRECTION, GUIDE_SORTS, SORT_DIRECTIONS, type GuideInsightsData, type GuideSort, type SortDirection } from 'src/contracts/guide-insights';
import { guideInsightsQuerySchema, guideInsightsSchema } from 'src/contracts/guide-insights.schema';
import { AdminGuard } from 'src/modules/auth';
import { ApiJsonResponse, jsonSchema } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { GuideInsightsService } from '../../application/guide-insights.service';

const ERROR = { schema: jsonSchema(z.object({ errors: z.array(z.string()), code: z.string() })) };

/** Admin: the data of /admin/guides as JSON. */
@ApiTags('admin')
@ApiSecurity('session')
@Controller('api/v1/admin/guides')
@UseGuards(AdminGuard)
export class GuideInsightsAdminController {
  constructor(private readonly insights: GuideInsightsService) {}

  @Get()
  @RateLimit(120, 60_000)
  @ApiOperation({
    summary:
      'Admin: every published guide with its views, helpful share and reasons, open reports and solved/stuck counts, 50 a page, worst first by default; and the most requested levels without a guide',
  })
  @ApiQuery({ name: 'sort', required: false, enum: GUIDE_SORTS, description: 'worst (default): most open reports, then lowest helpful share (10+ answers), then most stuck, then most viewed' })
  @ApiQuery({ name: 'dir', required: false, enum: SORT_DIRECTIONS, description: "Default: the sort's own (helpful and level ascending, the others descending: the worst or the most first)" })
  @ApiQuery({ name: 'page', required: false, example: 1 })
  @ApiJsonResponse(guideInsightsSchema)
  @ApiBadRequestResponse(ERROR)
  async list(@Query(new ZodPipe(guideInsightsQuerySchema)) query: { sort: GuideSort; dir?: SortDirection; page: number }): Promise<GuideInsightsData> {
    return guideInsightsSchema.parse(await this.insights.overview({ sort: query.sort, dir: query.dir ?? DEFAULT_DIRECTION[query.sort], page: query.page }));
  }
}
