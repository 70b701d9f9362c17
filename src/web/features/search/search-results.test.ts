import { describe, expect, it } from 'vitest';
import type { Suggestion } from '../../../shared/api/search.ts';
import { groupResults, readPage, snippetParts, visibleGroups } from './search-results.ts';

const result = (id: number, category_id: number | null, section_id = 1): Suggestion => ({
  id,
  title: `Article ${id}`,
  lang: 'en',
  category_id,
  section_id,
  snippet: '',
});
const names = {
  categories: new Map([
    [10, 'Billing'],
    [20, 'Setup'],
  ]),
  sections: new Map([[1, 'Getting started']]),
};
const ids = (groups: ReturnType<typeof groupResults>) =>
  groups.map((group) => [group.heading, group.items.map((item) => item.id)]);

describe('groupResults', () => {
  it('groups by category, or by section outside any category, in the order found', () => {
    const groups = groupResults([result(1, 10), result(2, null), result(3, 20), result(4, 10)], names);
    expect(ids(groups)).toEqual([
      ['Billing', [1, 4]],
      ['Getting started', [2]],
      ['Setup', [3]],
    ]);
    expect(groups.map((group) => group.categoryId)).toEqual([10, null, 20]);
  });
});

describe('visibleGroups', () => {
  const results = [
    result(1, 10),
    result(2, 20),
    result(3, 10),
    result(4, null),
    result(5, 20),
    result(6, 10),
  ];

  it('cuts the grouped order, so each heading shows once and added results come below', () => {
    expect(ids(visibleGroups(results, names, 2))).toEqual([['Billing', [1, 3]]]);
    expect(ids(visibleGroups(results, names, 4))).toEqual([
      ['Billing', [1, 3, 6]],
      ['Setup', [2]],
    ]);
    expect(ids(visibleGroups(results, names, 100))).toEqual([
      ['Billing', [1, 3, 6]],
      ['Setup', [2, 5]],
      ['Getting started', [4]],
    ]);
  });
});

describe('readPage', () => {
  it.each([
    [null, 1],
    ['', 1],
    ['2', 2],
    [' 3 ', 3],
    ['0', 1],
    ['-2', 1],
    ['2.5', 1],
    ['abc', 1],
    ['9', 5],
    ['9'.repeat(400), 5],
  ])('%j of 50 results → page %i', (param, page) => {
    expect(readPage(param, 50, 10)).toBe(page);
  });

  it('has one page for few or no results', () => {
    expect(readPage('4', 3, 10)).toBe(1);
    expect(readPage('4', 0, 10)).toBe(1);
  });
});

describe('snippetParts', () => {
  it('splits the marked words from the text and decodes what the server escaped', () => {
    expect(
      snippetParts('…if you <mark>can&#39;t</mark> pair &lt;b&gt; &amp; <mark>Wi</mark>-<mark>Fi</mark>…'),
    ).toEqual([
      { text: '…if you ', marked: false },
      { text: "can't", marked: true },
      { text: ' pair <b> & ', marked: false },
      { text: 'Wi', marked: true },
      { text: '-', marked: false },
      { text: 'Fi', marked: true },
      { text: '…', marked: false },
    ]);
  });

  it('keeps any other tag as its characters, never as markup', () => {
    expect(snippetParts('<img src=x onerror=alert(1)><mark><b>x</b></mark>')).toEqual([
      { text: '<img src=x onerror=alert(1)>', marked: false },
      { text: '<b>x</b>', marked: true },
    ]);
    expect(snippetParts('&#x1F600; &#0; &bogus;')).toEqual([{ text: '😀 &#0; &bogus;', marked: false }]);
    expect(snippetParts('')).toEqual([]);
  });
});
