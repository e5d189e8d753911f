import { z } from 'zod';
import { IMAGE_CONVERSIONS, IMAGE_URL_HINT, IMAGE_URL_MAX } from './images';

/** An image URL as the form and the API check it before the server fetches it (which checks far more). */
export const imageUrlSchema = z
  .string({ error: IMAGE_URL_HINT })
  .trim()
  .min(1, IMAGE_URL_HINT)
  .max(IMAGE_URL_MAX, IMAGE_URL_HINT)
  .pipe(z.url({ protocol: /^https?$/, error: IMAGE_URL_HINT }));

/** POST /api/v1/images as JSON (an image URL); uploads send the same fields as multipart form data with a file. */
export const imageUrlJobSchema = z.strictObject({
  conversion: z.enum(IMAGE_CONVERSIONS, { error: `conversion is one of ${IMAGE_CONVERSIONS.join(', ')}` }),
  url: imageUrlSchema,
});

export const imageConversionSchema = imageUrlJobSchema.shape.conversion;
