import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { parseLevelId } from 'src/contracts/levels';
import { ValidationError } from 'src/platform/errors/app-error';

/** The OpenAPI description of a `{number}` path parameter read by LevelNumberPipe: `@ApiParam(LEVEL_NUMBER_PARAM)`. */
export const LEVEL_NUMBER_PARAM = { name: 'number', description: 'Level number, 1 to the search maximum (635)', example: 27 };

/**
 * The level number of an API path, `@Param('number', LevelNumberPipe) number: number`: digits with
 * no sign or leading zero, 1 to LEVEL_SEARCH_MAX (the rule of src/contracts/levels.ts, as the pages
 * read /levels/{id}); anything else is a 400 that names the range.
 */
@Injectable()
export class LevelNumberPipe implements PipeTransform<string, number> {
  constructor(private readonly config: AppConfig) {}

  transform(raw: string): number {
    const max = this.config.public.levels.searchMax;
    const number = parseLevelId(raw, max);
    if (number === null) throw new ValidationError(`Invalid level number: it must be a whole number from 1 to ${max}`);
    return number;
  }
}
