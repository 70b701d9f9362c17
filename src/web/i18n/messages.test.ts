import { beforeAll, describe, expect, it } from 'vitest';
import { en, type Messages } from './en.ts';
import { createTranslator, loadAllMessages } from './i18n.tsx';
import { it as itMessages } from './it.ts';
import { ptBR } from './pt-BR.ts';
import { ru } from './ru.ts';
import { sk } from './sk.ts';

// Languages other than English are chunks loaded on demand (i18n.tsx).
beforeAll(loadAllMessages);

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const english = en as Record<string, string>;
const translations: Record<string, Messages> = { ru, 'pt-BR': ptBR, it: itMessages, sk };
const languages = Object.keys(translations);

const nonPluralKeys = Object.keys(en).filter((key) => !PLURAL_SUFFIX.test(key));
const families = [
  ...new Set(Object.keys(en).flatMap((key) => (key.endsWith('_one') ? [key.slice(0, -4)] : []))),
];
const placeholders = (text: string) => [...new Set(text.match(/\{\{\w+\}\}/g) ?? [])].sort();
/** The English text a key translates: itself, or the family's `_other` form for a plural key. */
const englishFor = (key: string) => english[key] ?? english[key.replace(PLURAL_SUFFIX, '_other')];
const counts = [...Array.from({ length: 201 }, (_, n) => n), 1_000_000];

describe('interface texts', () => {
  it('finds the plural families of English', () => {
    expect(families.sort()).toEqual([
      'articleCount',
      'categoryCount',
      'requestSuggestionsFound',
      'searchResultCount',
      'searchTopResults',
      'suggestions',
    ]);
  });

  describe.each(languages)('%s', (lang) => {
    const messages = translations[lang] as Record<string, string>;
    const keys = Object.keys(messages);

    it('has the same non-plural keys as English', () => {
      expect(keys.filter((key) => !PLURAL_SUFFIX.test(key)).sort()).toEqual([...nonPluralKeys].sort());
    });

    it('has plural keys only for English families and categories of the language', () => {
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
      for (const key of keys.filter((k) => PLURAL_SUFFIX.test(k))) {
        const [, category] = key.match(PLURAL_SUFFIX) ?? [];
        expect(families, key).toContain(key.replace(PLURAL_SUFFIX, ''));
        expect(categories, key).toContain(category);
      }
    });

    it('has a key for every plural category Intl.PluralRules returns', () => {
      const rules = new Intl.PluralRules(lang);
      const needed = [...new Set(counts.map((n) => rules.select(n)))];
      for (const family of families) {
        for (const category of needed)
          expect(keys, `${family}_${category}`).toContain(`${family}_${category}`);
        expect(keys, `${family}_other`).toContain(`${family}_other`);
      }
    });

    it('keeps the placeholders of the English texts', () => {
      for (const key of keys) {
        const source = englishFor(key);
        expect(source, key).toBeDefined();
        expect(placeholders(messages[key] ?? ''), key).toEqual(placeholders(source ?? ''));
      }
    });

    it('has no empty or untranslated-key texts', () => {
      for (const key of keys) {
        const text = messages[key] ?? '';
        expect(text.trim(), key).not.toBe('');
        expect(text, key).not.toBe(key);
        expect(text, key).not.toMatch(/\{\{\s*\}\}|\{\{[^}]*$/);
      }
    });
  });

  it('picks grammatical plural forms', () => {
    const samples: Record<string, [number, string][]> = {
      ru: [
        [1, '1 статья'],
        [2, '2 статьи'],
        [5, '5 статей'],
        [11, '11 статей'],
        [21, '21 статья'],
        [22, '22 статьи'],
      ],
      'pt-BR': [
        [1, '1 artigo'],
        [2, '2 artigos'],
      ],
      it: [
        [1, '1 articolo'],
        [0, '0 articoli'],
        [2, '2 articoli'],
      ],
      sk: [
        [1, '1 článok'],
        [2, '2 články'],
        [4, '4 články'],
        [5, '5 článkov'],
        [0, '0 článkov'],
      ],
    };
    for (const [lang, pairs] of Object.entries(samples)) {
      const t = createTranslator(lang as 'ru' | 'pt-BR' | 'it' | 'sk');
      for (const [count, text] of pairs) expect(t('articleCount', { count }), `${lang} ${count}`).toBe(text);
    }
    expect(createTranslator('it')('articleCount', { count: 1_000_000 })).toBe('1.000.000 di articoli');
    expect(createTranslator('pt-BR')('articleCount', { count: 1_000_000 })).toBe('1.000.000 de artigos');
    expect(createTranslator('ru')('suggestions', { count: 3 })).toBe('Найдено 3 статьи');
    expect(createTranslator('sk')('categoryCount', { count: 7 })).toBe('7 kategórií');
    const query = { query: 'wifi' };
    expect(createTranslator('en')('searchResultCount', { count: 1, ...query })).toBe('1 result for “wifi”');
    expect(createTranslator('en')('searchResultCount', { count: 12, ...query })).toBe(
      '12 results for “wifi”',
    );
    expect(createTranslator('ru')('searchResultCount', { count: 21, ...query })).toBe(
      '21 результат по запросу «wifi»',
    );
    expect(createTranslator('ru')('searchResultCount', { count: 12, ...query })).toBe(
      '12 результатов по запросу «wifi»',
    );
    expect(createTranslator('ru')('searchTopResults', { count: 50, ...query })).toBe(
      '50 лучших результатов по запросу «wifi»',
    );
    expect(createTranslator('sk')('searchResultCount', { count: 3, ...query })).toBe('3 výsledky pre „wifi“');
    expect(createTranslator('sk')('searchTopResults', { count: 50, ...query })).toBe(
      '50 najlepších výsledkov pre „wifi“',
    );
    expect(createTranslator('it')('searchResultCount', { count: 1, ...query })).toBe(
      '1 risultato per “wifi”',
    );
    expect(createTranslator('pt-BR')('searchResultCount', { count: 2, ...query })).toBe(
      '2 resultados para “wifi”',
    );
  });

  it('keeps the specified Russian bundle messages', () => {
    expect(ru.bundleIncomplete).toBe('Не все компоненты БЗ загружены');
    expect(ru.bundleFailed).toBe('Ошибка загрузки компонентов БЗ');
  });
});
