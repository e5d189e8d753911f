import { IMAGE_CONVERSION_LIMITS, IMAGE_CONVERSIONS } from 'src/contracts/images';
import { CONVERSION_IDS, CONVERSIONS } from './conversions';

describe('the conversions', () => {
  it('are the ones the browser offers, with the same input bounds and scales', () => {
    expect(CONVERSION_IDS).toEqual([...IMAGE_CONVERSIONS]);
    for (const id of CONVERSION_IDS) {
      expect({ maxInputSide: CONVERSIONS[id].maxInputSide, scale: CONVERSIONS[id].scale }).toEqual(IMAGE_CONVERSION_LIMITS[id]);
    }
  });

  it('double the size with each AI pass', () => {
    for (const spec of Object.values(CONVERSIONS)) if (spec.kind === 'ai') expect(spec.scale).toBe(2 ** spec.passes);
  });
});
