import { allJobFileKeys, jobFiles, resolveNoise, resultFormatFor } from './image-job';
import { DEFAULT_NOISE_FOR_JPEG } from './noise-defaults';

describe('the job rules', () => {
  it("resolves 'auto' noise by the input's format, and never lets the clean-up run without denoising", () => {
    expect(resolveNoise('auto', 'jpeg', 1)).toBe(DEFAULT_NOISE_FOR_JPEG);
    expect(resolveNoise('auto', 'png', 1)).toBe('none');
    expect(resolveNoise('auto', 'webp', 2)).toBe('none');
    expect(resolveNoise('high', 'png', 1)).toBe('high');
    expect(resolveNoise('none', 'jpeg', 1)).toBe('none');
    expect(resolveNoise('none', 'png', 0)).toBe('low');
    expect(resolveNoise('auto', 'gif', 0)).toBe('low');
    expect(resolveNoise('medium', 'png', 0)).toBe('medium');
  });

  it("picks the result's format: auto keeps JPEG and WebP, PNG and GIF give PNG; a chosen one wins", () => {
    expect([resultFormatFor('auto', 'jpeg'), resultFormatFor('auto', 'webp'), resultFormatFor('auto', 'png'), resultFormatFor('auto', 'gif')]).toEqual(['jpeg', 'webp', 'png', 'png']);
    expect(resultFormatFor('webp', 'jpeg')).toBe('webp');
  });

  it('names the result by its format, PNG for jobs from before formats, and lists every key the housekeeping deletes', () => {
    expect(jobFiles('j', 'jpeg').result).toBe('jobs/j/result.jpg');
    expect(jobFiles('j', null).result).toBe('jobs/j/result.png');
    expect(allJobFileKeys('j').sort()).toEqual(['jobs/j/input', 'jobs/j/preview.png', 'jobs/j/result.jpg', 'jobs/j/result.png', 'jobs/j/result.webp', 'jobs/j/thumbnail.jpg']);
  });
});
