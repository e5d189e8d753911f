import { Controller, Get, Param, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { GUIDE_REPORT_STATES, type GuideReportState, type GuideReportView } from 'src/contracts/guide-reports';
import { guideReportIdSchema, guideReportListQuerySchema, guideReportPageSchema, guideReportViewSchema } from 'src/contracts/guide-reports.schema';
import { AdminGuard } from 'src/modules/auth';
import { ApiJsonResponse, jsonSchema } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { GuideReportsService } from '../../application/guide-reports.service';

const ERROR = { schema: jsonSchema(z.object({ errors: z.array(z.string()), code: z.string() })) };

/** Admin: players' guide reports, listed, and marked handled once an admin has dealt with one (/admin/guides shows the open ones). */
@ApiTags('admin')
@ApiSecurity('session')
@Controller('api/v1/admin/guide_reports')
@UseGuards(AdminGuard)
export class GuideReportsAdminController {
  constructor(private readonly reports: GuideReportsService) {}

  @Get()
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: 'Admin: guide reports, newest first; open ones by default (state=handled or all), one level with level=N; 50 a page' })
  @ApiQuery({ name: 'level', required: false, example: 27, description: "One level's reports" })
  @ApiQuery({ name: 'state', required: false, enum: GUIDE_REPORT_STATES, description: 'open (default): not yet handled' })
  @ApiQuery({ name: 'page', required: false, example: 1 })
  @ApiJsonResponse(guideReportPageSchema)
  @ApiBadRequestResponse(ERROR)
  async list(@Query(new ZodPipe(guideReportListQuerySchema)) query: { level?: number; state: GuideReportState; page: number }) {
    return guideReportPageSchema.parse(await this.reports.list({ level: query.level, state: query.state }, query.page));
  }

  /** Idempotent: marking a handled report again answers the same, with the time it was first marked. */
  @Put(':id/handled')
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: 'Admin: mark a guide report handled (no body). Idempotent: a repeat keeps the time of the first' })
  @ApiParam({ name: 'id', description: "The report's id (a UUID)" })
  @ApiJsonResponse(guideReportViewSchema)
  @ApiBadRequestResponse({ description: 'Not a report id', ...ERROR })
  @ApiNotFoundResponse({ description: 'No such report (GUIDE_REPORTS.NOT_FOUND)', ...ERROR })
  async markHandled(@Param('id', new ZodPipe(guideReportIdSchema)) id: string): Promise<GuideReportView> {
    return guideReportViewSchema.parse(await this.reports.markHandled(id));
  }
}
