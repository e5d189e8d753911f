import { ApiBody, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { z } from 'zod';

/** JSON Schema of a zod schema for the OpenAPI document: what a request may send (`input`) or a response holds. */
export const jsonSchema = (schema: z.ZodType, io: 'input' | 'output' = 'output') =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>;

/** The request body of a route, from the zod schema its ZodPipe checks. */
export const ApiJsonBody = (schema: z.ZodType) => ApiBody({ schema: jsonSchema(schema, 'input') });

/** The 200 (or 201) answer of a route, from a zod schema of its response. */
export const ApiJsonResponse = (schema: z.ZodType, status: 200 | 201 = 200) =>
  status === 201 ? ApiCreatedResponse({ schema: jsonSchema(schema) }) : ApiOkResponse({ schema: jsonSchema(schema) });
