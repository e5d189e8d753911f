import { IMAGE_CONVERSIONS, isAiConversion } from 'src/contracts/images';
import { CONVERSION_IDS, CONVERSIONS, modelsFor } from './conversions';

describe('the conversions', () => {
  it('are the ones the browser offers, AI where the contract says so', () => {
    expect(CONVERSION_IDS).toEqual([...IMAGE_CONVERSIONS]);
    for (const id of CONVERSION_IDS) expect(CONVERSIONS[id].kind === 'ai').toBe(isAiConversion(id));
  });

  it('run one model per pass: denoising once, in the first pass; the clean-up always denoises, on CUnet', () => {
    expect(modelsFor('cunet', 1, 'none')).toEqual(['waifu2x-cunet-x2']);
    expect(modelsFor('upconv7', 2, 'medium')).toEqual(['waifu2x-upconv7-noise2-x2', 'waifu2x-upconv7-x2']);
    expect(modelsFor('upconv7', 0, 'none')).toEqual(['waifu2x-cunet-noise1-x1']);
    expect(modelsFor('cunet', 0, 'high')).toEqual(['waifu2x-cunet-noise3-x1']);
  });
});
