import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { z } from 'zod';
import type { GuideReportInput, GuideReportReceipt } from 'src/contracts/guide-reports';
import { guideReportInputSchema, guideReportReceiptSchema } from 'src/contracts/guide-reports.schema';
import { LEVEL_NUMBER_PARAM, LevelNumberPipe } from 'src/platform/http/level-number.pipe';
import { ApiJsonBody, ApiJsonResponse, jsonSchema } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { GuideReportsService } from '../../application/guide-reports.service';

const ERROR = { schema: jsonSchema(z.object({ errors: z.array(z.string()), code: z.string() })) };

/** "Something wrong with this guide?": anonymous, JSON only like every API write (a form post is 415), 5 reports per 10 minutes per client. */
@ApiTags('guide-reports')
@Controller('api/v1')
export class GuideReportsController {
  constructor(private readonly reports: GuideReportsService) {}

  @Post('levels/:number/reports')
  @HttpCode(201)
  @RateLimit(5, 10 * 60_000)
  @ApiOperation({ summary: "Report a problem with a level's guide (anonymous; 5 per 10 minutes per client); the admins are mailed" })
  @ApiParam(LEVEL_NUMBER_PARAM)
  @ApiJsonBody(guideReportInputSchema)
  @ApiJsonResponse(guideReportReceiptSchema, 201)
  @ApiBadRequestResponse({ description: 'Not a level number, or the body does not match', ...ERROR })
  @ApiUnsupportedMediaTypeResponse({ description: 'Not JSON (REQUEST.JSON_ONLY)', ...ERROR })
  @ApiNotFoundResponse({ description: 'The level has no guide (GUIDE_REPORTS.NO_GUIDE)', ...ERROR })
  @ApiTooManyRequestsResponse(ERROR)
  async report(
    @Param('number', LevelNumberPipe) number: number,
    @Body(new ZodPipe(guideReportInputSchema)) body: GuideReportInput,
  ): Promise<GuideReportReceipt> {
    const report = await this.reports.report(number, body);
    return guideReportReceiptSchema.parse({ id: report.id });
  }
}
