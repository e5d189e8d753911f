import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { z } from 'zod';
import { SEARCH_QUERY_MAX } from 'src/contracts/search';
import { searchQuerySchema, searchResultsSchema } from 'src/contracts/search.schema';
import { jsonSchema } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { SearchService } from '../../application/search.service';

const ERROR = { schema: jsonSchema(z.object({ errors: z.array(z.string()), code: z.string() })) };

/** The one search, anonymous: 60 searches a minute per client (each is a few database queries). */
@ApiTags('search')
@Controller('api/v1')
export class SearchController {
  constructor(private readonly searches: SearchService) {}

  @Get('search')
  @RateLimit(60, 60_000)
  @ApiOperation({
    summary: 'Search the guides, blog posts and pages (spelling corrected; a level number finds its guide), grouped by kind, the best first',
  })
  @ApiQuery({ name: 'q', required: true, description: `Words, a level number or both; at most ${SEARCH_QUERY_MAX} characters`, example: 'brass key' })
  @ApiOkResponse({ schema: jsonSchema(searchResultsSchema) })
  @ApiBadRequestResponse({ description: 'q missing, blank, too long or with control characters', ...ERROR })
  @ApiTooManyRequestsResponse(ERROR)
  async search(@Query(new ZodPipe(searchQuerySchema)) query: z.infer<typeof searchQuerySchema>) {
    return searchResultsSchema.parse(await this.searches.search(query.q));
  }
}
