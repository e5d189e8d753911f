import { z } from 'zod';
import { IMAGE_CONVERSIONS, IMAGE_MAX_EXACT_WIDTH, IMAGE_NOISE_LEVELS, IMAGE_OUTPUT_FORMATS, IMAGE_SCALES, IMAGE_URL_HINT, IMAGE_URL_MAX, isAiConversion, IMAGE_DEFAULT_QUALITY, type ImageOptions } from './images';

/** An image URL as the form and the API check it before the server fetches it (which checks far more). */
export const imageUrlSchema = z
  .string({ error: IMAGE_URL_HINT })
  .trim()
  .min(1, IMAGE_URL_HINT)
  .max(IMAGE_URL_MAX, IMAGE_URL_HINT)
  // A raw control character (a NUL, a line break) is in no valid URL; PostgreSQL refuses NUL in text.
  .refine((url) => ![...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), IMAGE_URL_HINT)
  .pipe(z.url({ protocol: /^https?$/, error: IMAGE_URL_HINT }));

export const imageConversionSchema = z.enum(IMAGE_CONVERSIONS, { error: `conversion is one of ${IMAGE_CONVERSIONS.join(', ')}` });

/**
 * The settings beside the conversion, as JSON values or multipart text fields (numbers as digits).
 * Each is optional (DEFAULT_IMAGE_OPTIONS); the cross-field rules are in `imageJobFieldsSchema`.
 */
const optionFields = {
  scale: z.coerce
    .number()
    .refine((n) => (IMAGE_SCALES as readonly number[]).includes(n), { error: `scale is one of ${IMAGE_SCALES.join(', ')}` })
    .optional(),
  width: z.coerce.number().int({ error: 'width is a whole number of pixels' }).min(1).max(IMAGE_MAX_EXACT_WIDTH, { error: `width is at most ${IMAGE_MAX_EXACT_WIDTH} px` }).optional(),
  noise: z.enum([...IMAGE_NOISE_LEVELS, 'auto'], { error: `noise is one of ${[...IMAGE_NOISE_LEVELS, 'auto'].join(', ')}` }).optional(),
  format: z.enum(IMAGE_OUTPUT_FORMATS, { error: `format is one of ${IMAGE_OUTPUT_FORMATS.join(', ')}` }).optional(),
  quality: z.coerce.number().int({ error: 'quality is a whole number from 1 to 100' }).min(1).max(100).optional(),
};

/** The rules between the fields: a scale or a width, and scale, width and noise for AI conversions only. */
function crossFieldRules(value: { conversion: (typeof IMAGE_CONVERSIONS)[number]; scale?: number; width?: number; noise?: string }, context: z.RefinementCtx) {
  if (value.scale !== undefined && value.width !== undefined) context.addIssue({ code: 'custom', message: 'Give a scale or a width, not both.', path: ['width'] });
  if (!isAiConversion(value.conversion)) {
    for (const key of ['scale', 'width', 'noise'] as const) {
      if (value[key] !== undefined) context.addIssue({ code: 'custom', message: `${key} is for the AI conversions only.`, path: [key] });
    }
  }
}

const toOptions = ({ scale, width, noise, format, quality }: { scale?: number; width?: number; noise?: ImageOptions['noise']; format?: ImageOptions['format']; quality?: number }): ImageOptions => ({
  scale: (scale ?? null) as ImageOptions['scale'],
  width: width ?? null,
  noise: noise ?? 'auto',
  format: format ?? 'auto',
  quality: quality ?? IMAGE_DEFAULT_QUALITY,
});

/** The fields of a submission besides its source (multipart text fields), with the rules between them. */
export const imageJobFieldsSchema = z
  .strictObject({ conversion: imageConversionSchema.default('ai-2x'), ...optionFields })
  .superRefine(crossFieldRules)
  .transform((value) => ({ conversion: value.conversion, options: toOptions(value) }));

/** POST /api/v1/images as JSON (an image URL); uploads send the same fields as multipart form data with a file. */
export const imageUrlJobSchema = z
  .strictObject({ conversion: imageConversionSchema, url: imageUrlSchema, ...optionFields })
  .superRefine(crossFieldRules)
  .transform((value) => ({ conversion: value.conversion, url: value.url, options: toOptions(value) }));

/** The longest input side the estimate is asked about (sharp's own limit is far beyond any 10 MB image). */
const ESTIMATE_MAX_INPUT_SIDE = 65_535;
// A missing or non-numeric side coerces to NaN: the same reason, not zod's "received NaN".
const side = (name: string) => z.coerce.number({ error: `${name} is a whole number of pixels` }).int({ error: `${name} is a whole number of pixels` }).min(1, { error: `${name} is at least 1 px` }).max(ESTIMATE_MAX_INPUT_SIDE, { error: `${name} is at most ${ESTIMATE_MAX_INPUT_SIDE} px` });

/**
 * GET /api/v1/images/estimate?conversion=&width=&height=[&scale=|&width_out=]: the image's size as
 * the page read it, and the size asked for as a submission gives it (`width_out` is its `width`).
 */
export const imageEstimateQuerySchema = z
  .strictObject({ conversion: imageConversionSchema, width: side('width'), height: side('height'), scale: optionFields.scale, width_out: optionFields.width })
  .superRefine((value, context) => {
    if (value.scale !== undefined && value.width_out !== undefined) context.addIssue({ code: 'custom', message: 'Give a scale or a width_out, not both.', path: ['width_out'] });
    if (!isAiConversion(value.conversion)) {
      for (const key of ['scale', 'width_out'] as const) {
        if (value[key] !== undefined) context.addIssue({ code: 'custom', message: `${key} is for the AI conversions only.`, path: [key] });
      }
    }
  })
  .transform(({ conversion, width, height, scale, width_out }) => ({ conversion, width, height, options: { scale: (scale ?? null) as ImageOptions['scale'], width: width_out ?? null } }));

const seconds = z.number().nonnegative();
/** The answer of GET /api/v1/images/estimate (ImageEstimate), for the OpenAPI document. */
export const imageEstimateSchema = z.object({
  result: z.object({ width: z.number().int(), height: z.number().int() }),
  seconds: z.object({ low: seconds, typical: seconds, high: seconds }).nullable(),
  basis: z.enum(['recent', 'default']).nullable(),
  queue: z.object({ ahead: z.number().int().nonnegative(), workers: z.number().int().nonnegative() }),
});
