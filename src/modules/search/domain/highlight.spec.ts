import { MARK_END as E, MARK_START as S } from 'src/contracts/search';
import { segments } from './highlight';

describe('segments', () => {
  it('splits a marked text into plain and marked pieces', () => {
    expect(segments(`The Locked ${S}Observatory${E}`)).toEqual([{ text: 'The Locked ' }, { text: 'Observatory', mark: true }]);
    expect(segments(`${S}Telescope${E}, and the ${S}telescope${E}’s hinge`)).toEqual([
      { text: 'Telescope', mark: true },
      { text: ', and the ' },
      { text: 'telescope', mark: true },
      { text: '’s hinge' },
    ]);
  });

  it('makes marked words with only a space between one mark', () => {
    expect(segments(`Tap the ${S}brass${E} ${S}key${E} under the rug`)).toEqual([
      { text: 'Tap the ' },
      { text: 'brass key', mark: true },
      { text: ' under the rug' },
    ]);
    expect(segments(`${S}brass${E}, ${S}key${E}`)).toHaveLength(3);
  });

  it('keeps markup as text (the page renders text nodes), collapses white space and trims', () => {
    expect(segments(`  <img src=x onerror=alert(1)>\n\n${S}<b>${E} &amp; `)).toEqual([
      { text: '<img src=x onerror=alert(1)> ' },
      { text: '<b>', mark: true },
      { text: ' &amp;' },
    ]);
  });

  it('marks nothing for a marker without its pair, and is empty for empty text', () => {
    expect(segments(`open ${S}door`)).toEqual([{ text: 'open door' }]);
    expect(segments(`open${E} door${S}`)).toEqual([{ text: 'open door' }]);
    expect(segments(`${S}${E}`)).toEqual([]);
    expect(segments('')).toEqual([]);
  });
});
