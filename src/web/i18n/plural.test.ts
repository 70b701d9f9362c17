import { beforeAll, describe, expect, it } from 'vitest';
import { createTranslator, loadAllMessages } from './i18n.tsx';

// Languages other than English are chunks loaded on demand (i18n.tsx).
beforeAll(loadAllMessages);

describe('plural forms follow each language', () => {
  it.each([
    ['en', 1, '1 article'],
    ['en', 2, '2 articles'],
    ['ru', 1, '1 статья'],
    ['ru', 21, '21 статья'],
    ['ru', 3, '3 статьи'],
    ['ru', 24, '24 статьи'],
    ['ru', 5, '5 статей'],
    ['ru', 11, '11 статей'],
    ['ru', 12, '12 статей'],
    ['ru', 20, '20 статей'],
    ['ru', 100, '100 статей'],
    ['sk', 1, '1 článok'],
    ['sk', 2, '2 články'],
    ['sk', 4, '4 články'],
    ['sk', 5, '5 článkov'],
    ['sk', 21, '21 článkov'],
  ] as const)('%s %i → %s', (lang, count, text) => {
    expect(createTranslator(lang)('articleCount', { count })).toBe(text);
  });
});

describe('the search result count follows each language', () => {
  it.each([
    ['en', 1, '1 result for “lumo”'],
    ['en', 12, '12 results for “lumo”'],
    ['ru', 1, '1 результат по запросу «lumo»'],
    ['ru', 3, '3 результата по запросу «lumo»'],
    ['ru', 11, '11 результатов по запросу «lumo»'],
    ['ru', 22, '22 результата по запросу «lumo»'],
    ['ru', 25, '25 результатов по запросу «lumo»'],
    ['sk', 1, '1 výsledok pre „lumo“'],
    ['sk', 4, '4 výsledky pre „lumo“'],
    ['sk', 5, '5 výsledkov pre „lumo“'],
    ['it', 1, '1 risultato per “lumo”'],
    ['it', 12, '12 risultati per “lumo”'],
    ['pt-BR', 1, '1 resultado para “lumo”'],
    ['pt-BR', 12, '12 resultados para “lumo”'],
  ] as const)('%s %i → %s', (lang, count, text) => {
    expect(createTranslator(lang)('searchResultCount', { count, query: 'lumo' })).toBe(text);
  });
});
