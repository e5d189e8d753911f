import { MARK_END, MARK_START, type Segment } from 'src/contracts/search';

const MARKERS = new RegExp(`([${MARK_START}${MARK_END}])`);

/**
 * A title or snippet with its matches between MARK_START and MARK_END, as segments the page
 * renders as text (a marked one inside <mark>): no HTML is ever made from it. Runs of white space
 * become one space; marked words with only a space between are one mark ("brass key"); a marker
 * without its pair marks nothing.
 */
export function segments(marked: string): Segment[] {
  const parts = marked.replace(/\s+/g, ' ').trim().split(MARKERS);
  const out: Segment[] = [];
  const push = (text: string, mark: boolean) => {
    const last = out.at(-1);
    if (last && !!last.mark === mark) last.text += text;
    else out.push(mark ? { text, mark: true } : { text });
  };
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === MARK_START && parts[i + 2] === MARK_END) {
      const word = parts[i + 1]!;
      const gap = out.at(-1);
      // "<mark>brass</mark> <mark>key</mark>" reads as one match.
      if (gap && !gap.mark && gap.text === ' ' && out.at(-2)?.mark) {
        out.pop();
        out.at(-1)!.text += ` ${word}`;
      } else if (word) push(word, true);
      i += 2;
    } else if (part && part !== MARK_START && part !== MARK_END) push(part, false);
  }
  return out;
}
