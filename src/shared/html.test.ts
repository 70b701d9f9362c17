import { describe, expect, it } from 'vitest';
import { decodeEntities, escapeHtml } from './html.ts';

describe('decodeEntities', () => {
  it('reads what escapeHtml writes, back to the text', () => {
    const text = `Tom & "Jerry" <b>'s</b> café 😀`;
    expect(decodeEntities(escapeHtml(text))).toBe(text);
  });

  it('reads named references in any case, numeric ones decimal and hex, and &nbsp; as a space', () => {
    expect(decodeEntities('&AMP; &Lt; &gt; &quot; &apos; a&nbsp;b')).toBe(`& < > " ' a b`);
    expect(decodeEntities('&#39; &#x27; &#X1F600; &#233;')).toBe(`' ' 😀 é`);
  });

  it('reads each reference once, one past Unicode as a space, and leaves &#0; and unknown names as written', () => {
    expect(decodeEntities('&amp;lt; &amp;#39;')).toBe('&lt; &#39;');
    expect(decodeEntities('&copy; &unknown; & alone; &;')).toBe('&copy; &unknown; & alone; &;');
    expect(decodeEntities('a&#x110000;b&#99999999999;c&#0;')).toBe('a b c&#0;');
  });
});
