import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import type { PictureSource } from '../../domain/level';
import { PictureEncoder, type PictureCopy } from '../../domain/guide-picture.port';

/**
 * AVIF and WebP at each width, one decode per width. Effort 2 for AVIF: a guide's six pictures
 * encode in about a second on one core at start, and the scenes are flat colour, where more
 * effort saves little.
 */
@Injectable()
export class SharpPictureEncoder extends PictureEncoder {
  async encode(source: PictureSource): Promise<PictureCopy[]> {
    const copies: PictureCopy[] = [];
    for (const width of source.widths) {
      const resized = sharp(source.bytes, { limitInputPixels: 4000 * 4000 }).rotate().resize({ width, withoutEnlargement: true });
      const [avif, webp] = await Promise.all([resized.clone().avif({ quality: 55, effort: 2 }).toBuffer(), resized.clone().webp({ quality: 78, effort: 4 }).toBuffer()]);
      copies.push({ file: `${source.hash}-${width}.avif`, hash: source.hash, contentType: 'image/avif', bytes: avif });
      copies.push({ file: `${source.hash}-${width}.webp`, hash: source.hash, contentType: 'image/webp', bytes: webp });
    }
    return copies;
  }
}
