import { describe, expect, it } from 'vitest';
import { titleFromQuery } from './query-title.ts';

describe('an article title from a search query', () => {
  it('capitalises the first letter and drops spaces and end punctuation', () => {
    expect(titleFromQuery('  reset   router password? ')).toBe('Reset router password');
    expect(titleFromQuery('wi-fi not working.')).toBe('Wi-fi not working');
    expect(titleFromQuery('écran noir')).toBe('Écran noir');
    expect(titleFromQuery('как сбросить пароль')).toBe('Как сбросить пароль');
    expect(titleFromQuery('error 42')).toBe('Error 42');
    expect(titleFromQuery('')).toBe('');
  });
});
