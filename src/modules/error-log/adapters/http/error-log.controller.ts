import { ApiBody, ApiNoContentResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { clientErrorReportSchema, type ClientErrorReport } from 'src/contracts/error-report';
import { AdminGuard } from 'src/modules/auth';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { toErrorGroupView } from '../../application/error-group-view';
import { ErrorLogService } from '../../application/error-log.service';

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

@ApiTags('error-log')
@Controller('api/v1')
export class ErrorLogController {
  constructor(private readonly errorLog: ErrorLogService) {}

  /** Browsers report their errors here; the answer is never read, so it is empty. */
  @Post('log_client_error')
  @HttpCode(204)
  @RateLimit(30, 60_000)
  @ApiOperation({ summary: 'Report an error seen in the browser (30 a minute per client)' })
  @ApiBody({ schema: z.toJSONSchema(clientErrorReportSchema, { target: 'openapi-3.0' }) as Record<string, unknown> })
  @ApiNoContentResponse({ description: 'Recorded' })
  async report(@Body(new ZodPipe(clientErrorReportSchema)) body: ClientErrorReport): Promise<void> {
    await this.errorLog.recordClientReport(body);
  }

  @Get('admin/client_errors')
  @UseGuards(AdminGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'Error groups, most recently seen first (admin)' })
  async list(@Query(new ZodPipe(listQuery)) query: z.infer<typeof listQuery>) {
    const reports = await this.errorLog.latest(query.limit);
    return {
      data: reports.map((r) => ({ ...toErrorGroupView(r), origin_type: r.originType, user_email: r.userEmail ?? null })),
    };
  }
}
