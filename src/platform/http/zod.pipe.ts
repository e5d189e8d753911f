import type { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { ValidationError } from 'src/platform/errors/app-error';

/** Validates a request part against a shared zod schema; failures become a 400 naming each field. */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    const parsed = this.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const details = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
    throw new ValidationError(details[0] ?? 'Invalid request', details);
  }
}
