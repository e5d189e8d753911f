import { DEFAULT_IMAGE_OPTIONS, IMAGE_CONVERSIONS, IMAGE_URL_HINT, IMAGE_SCALES, planImageSize, refusesEnlargement, type ImageConversion, type ImageOptions } from './images';
import { imageJobFieldsSchema, imageUrlJobSchema, imageUrlSchema } from './images.schema';

const options = (o: Partial<ImageOptions>) => ({ ...DEFAULT_IMAGE_OPTIONS, ...o });

describe('planImageSize: the one size rule', () => {
  it.each([
    // [input, conversion, options, network input, passes, result]
    ['a 4032x3024 phone photo, AI 2x', 4032, 3024, 'ai-2x', {}, [2048, 1536], 1, [4096, 3072]],
    ['a 1920x1080 screenshot, AI 2x fast', 1920, 1080, 'ai-2x-fast', {}, [1920, 1080], 1, [3840, 2160]],
    ['a 3000x200 panorama, AI 2x', 3000, 200, 'ai-2x', {}, [2048, 137], 1, [4096, 273]],
    ['a 1000x1000 PNG, AI 2x', 1000, 1000, 'ai-2x', {}, [1000, 1000], 1, [2000, 2000]],
    ['a 64x48 icon, AI 4x', 64, 48, 'ai-4x', {}, [64, 48], 2, [256, 192]],
    ['a 2000x1500 photo, AI 4x: capped at 4096', 2000, 1500, 'ai-4x', {}, [1024, 768], 2, [4096, 3072]],
    ['a 1000x800 photo at 1.5x: the network doubles, one resample down', 1000, 800, 'ai-2x', { scale: 1.5 }, [1000, 800], 1, [1500, 1200]],
    ['a 1000x800 photo at 3x: two passes', 1000, 800, 'ai-2x-fast', { scale: 3 }, [1000, 800], 2, [3000, 2400]],
    ['an exact width of 2500 px on a 1000x800 photo', 1000, 800, 'ai-2x', { width: 2500 }, [1000, 800], 2, [2500, 2000]],
    ['an exact width smaller than the input: the network runs on no more pixels than the result has', 3000, 2000, 'ai-2x', { width: 1200 }, [1200, 800], 1, [1200, 800]],
    ['the clean-up (1x) of a 5000x3000 photo: at its size', 5000, 3000, 'ai-2x', { scale: 1 }, [5000, 3000], 0, [5000, 3000]],
    ['classic 2x of a 1920x1080 screenshot', 1920, 1080, 'enhance', {}, [1920, 1080], 0, [3840, 2160]],
    ['a sketch of a 5000x3000 photo: shrunk to 4096', 5000, 3000, 'sketch', {}, [4096, 2458], 0, [4096, 2458]],
  ] as const)('%s', (_name, width, height, conversion, opts, input, passes, result) => {
    const plan = planImageSize(width, height, conversion, options(opts));
    expect([plan.input.width, plan.input.height]).toEqual(input);
    expect(plan.input.shrunk).toBe(input[0] !== width || input[1] !== height);
    expect(plan.passes).toBe(passes);
    expect([plan.result.width, plan.result.height]).toEqual(result);
  });

  it('never comes back smaller than an input of up to 4096 px on its long side, for any conversion and scale', () => {
    const sizes = [
      [1, 1],
      [17, 4096],
      [4096, 4096],
      [4096, 3072],
      [2049, 2047],
      [1025, 1025],
      [3000, 200],
      [200, 3000],
    ] as const;
    for (const [width, height] of sizes) {
      for (const conversion of IMAGE_CONVERSIONS) {
        const scales = conversion.startsWith('ai') ? IMAGE_SCALES : [null];
        for (const scale of scales) {
          const plan = planImageSize(width, height, conversion as ImageConversion, options({ scale }));
          expect({ width, height, conversion, scale, smaller: plan.smaller }).toEqual({ width, height, conversion, scale, smaller: false });
          expect(plan.input.width).toBeLessThanOrEqual(width);
          expect(plan.input.height).toBeLessThanOrEqual(height);
          expect(Math.max(plan.result.width, plan.result.height)).toBeLessThanOrEqual(Math.max(4096, width, height));
        }
      }
    }
  });

  it('says when an enlargement would come back smaller, and refuses only enlargements', () => {
    expect(planImageSize(5000, 3000, 'ai-2x').smaller).toBe(true);
    expect(refusesEnlargement(5000, 3000, 'ai-2x')).toBe(true);
    expect(refusesEnlargement(5000, 3000, 'ai-4x', options({ scale: 1.5 }))).toBe(true);
    expect(refusesEnlargement(5000, 3000, 'enhance')).toBe(true);
    expect(refusesEnlargement(5000, 3000, 'ai-2x', options({ width: 4096 }))).toBe(false);
    expect(refusesEnlargement(5000, 3000, 'ai-2x', options({ scale: 1 }))).toBe(false);
    expect(refusesEnlargement(5000, 3000, 'sketch')).toBe(false);
    expect(refusesEnlargement(4096, 3072, 'ai-2x')).toBe(false);
  });
});

describe('the submission fields', () => {
  it('take multipart text (numbers as digits) and JSON alike, with defaults', () => {
    expect(imageJobFieldsSchema.parse({ conversion: 'ai-2x', scale: '1.5', noise: 'low', format: 'jpeg', quality: '85' })).toEqual({
      conversion: 'ai-2x',
      options: { scale: 1.5, width: null, noise: 'low', format: 'jpeg', quality: 85 },
    });
    expect(imageJobFieldsSchema.parse({})).toEqual({ conversion: 'ai-2x', options: DEFAULT_IMAGE_OPTIONS });
    expect(imageUrlJobSchema.parse({ conversion: 'sketch', url: 'https://example.com/a.png', format: 'webp' })).toEqual({
      conversion: 'sketch',
      url: 'https://example.com/a.png',
      options: { ...DEFAULT_IMAGE_OPTIONS, format: 'webp' },
    });
  });

  it('refuse a scale and a width together, AI options on a classic style, and values out of range, the same way for uploads and URLs', () => {
    for (const schema of [imageJobFieldsSchema, imageUrlJobSchema.transform((v) => v)]) {
      const base = schema === imageJobFieldsSchema ? {} : { url: 'https://example.com/a.png' };
      expect(schema.safeParse({ ...base, conversion: 'ai-2x', scale: 2, width: 100 }).success).toBe(false);
      expect(schema.safeParse({ ...base, conversion: 'sketch', noise: 'low' }).success).toBe(false);
      expect(schema.safeParse({ ...base, conversion: 'ai-2x', scale: 2.5 }).success).toBe(false);
      expect(schema.safeParse({ ...base, conversion: 'ai-2x', width: 4097 }).success).toBe(false);
      expect(schema.safeParse({ ...base, conversion: 'ai-2x', quality: 0 }).success).toBe(false);
      expect(schema.safeParse({ ...base, conversion: 'ai-2x', format: 'gif' }).success).toBe(false);
      expect(schema.safeParse({ ...base, conversion: 'ai-2x', colour: 'red' }).success).toBe(false);
    }
  });
});

describe('the image URL', () => {
  it('refuses control characters (a NUL reached the database and answered 503) with the spec hint', () => {
    for (const url of ['https://example.com/a\u0000.png', 'https://example.com/a\n.png', 'https://example.com/\u007f']) {
      expect(imageUrlSchema.safeParse(url).error?.issues[0]?.message).toBe(IMAGE_URL_HINT);
    }
    expect(imageUrlSchema.parse(' https://example.com/a%00.png ')).toBe('https://example.com/a%00.png');
  });
});
