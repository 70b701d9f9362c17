import { describe, expect, it } from 'vitest';
import { SEARCH_TEXT_MAX } from '../../../shared/constants.ts';
import { suggestionQuery } from './request-suggestions.tsx';

describe('what a request message is searched by', () => {
  it('waits for three words of three letters or more', () => {
    expect(suggestionQuery('')).toBe('');
    expect(suggestionQuery('hi, my tv')).toBe('');
    expect(suggestionQuery('router is off')).toBe('');
    expect(suggestionQuery('My router blinks red')).toBe('My router blinks red');
    expect(suggestionQuery('Роутер мигает красным')).toBe('Роутер мигает красным');
  });

  it('takes the leading words within the search limit, without punctuation', () => {
    expect(suggestionQuery('Hello!\n\nMy router — it blinks red, since Monday.')).toBe(
      'Hello My router it blinks red since Monday',
    );
    const long = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const query = suggestionQuery(long);
    expect(query.length).toBeLessThanOrEqual(SEARCH_TEXT_MAX);
    expect(long.startsWith(query)).toBe(true);
    expect(long[query.length]).toBe(' ');
  });
});
