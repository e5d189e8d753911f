import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { DIFFICULTY_LABELS, type Difficulty } from 'src/contracts/levels';
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, PreviewImageRenderer, type PreviewCard } from '../../domain/preview-image-renderer.port';
import { escapeMarkup } from 'src/platform/markup/escape-markup';

const BADGE_COLOURS: Record<Difficulty, string> = { easy: '#16a34a', medium: '#d97706', hard: '#dc2626' };


/** Draws the card as SVG and rasterises it with sharp (librsvg). */
@Injectable()
export class SharpPreviewImageRenderer extends PreviewImageRenderer {
  async render(card: PreviewCard): Promise<Buffer> {
    const badge = card.difficulty
      ? `<rect x="96" y="400" rx="30" width="${DIFFICULTY_LABELS[card.difficulty].length * 22 + 80}" height="60" fill="${BADGE_COLOURS[card.difficulty]}"/>
         <text x="128" y="441" font-size="32" font-weight="700" fill="#fff">${DIFFICULTY_LABELS[card.difficulty]}</text>`
      : '';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" viewBox="0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
      <defs>
        <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="#030712"/><stop offset="1" stop-color="#052e16"/>
        </linearGradient>
      </defs>
      <rect width="100%" height="100%" fill="url(#bg)"/>
      <rect x="96" y="96" width="88" height="88" rx="22" fill="#16a34a"/>
      <path d="M124 170V118a8 8 0 0 1 8-8h24a8 8 0 0 1 8 8v52" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"/>
      <circle cx="144" cy="138" r="7" fill="#fff"/>
      <text x="208" y="140" font-size="34" font-weight="700" fill="#e5e7eb">${escapeMarkup(card.siteName)}</text>
      <text x="208" y="180" font-size="26" fill="#9ca3af">Unofficial ${escapeMarkup(card.gameName)} guide</text>
      <text x="96" y="360" font-size="120" font-weight="800" fill="#ffffff">${escapeMarkup(card.heading)}</text>
      ${badge}
      <text x="96" y="580" font-size="30" fill="#86efac">Hints, step-by-step solution and video walkthrough</text>
    </svg>`;
    return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
  }
}
