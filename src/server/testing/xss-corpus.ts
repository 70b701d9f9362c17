import fs from 'node:fs';

/** One case of the XSS corpora in test-data/xss (DOMPurify's fixtures, the html5sec vectors). */
export interface XssPayload {
  id: string;
  title?: string;
  payload: string;
}

const corpus = (name: string): XssPayload[] =>
  (
    JSON.parse(fs.readFileSync(new URL(`../../../test-data/xss/${name}.json`, import.meta.url), 'utf8')) as {
      payloads: XssPayload[];
    }
  ).payloads;

/**
 * The characters html5sec's `[a]`…`[e]` slots stand for: the vectors are written with the slot and tried with each
 * character that browsers have been known to skip or take as a separator there (controls, white space, a slash, a
 * no-break space, the line separator).
 */
const SLOT_CHARACTERS: [string, string][] = [
  ['nul', '\u0000'],
  ['soh', '\u0001'],
  ['bs', '\u0008'],
  ['tab', '\t'],
  ['lf', '\n'],
  ['vt', '\u000b'],
  ['ff', '\f'],
  ['cr', '\r'],
  ['space', ' '],
  ['slash', '/'],
  ['nbsp', '\u00a0'],
  ['lsep', '\u2028'],
];

const SLOT = /\[[a-e]\]/g;
const HAS_SLOT = /\[[a-e]\]/;

/** A vector with slots becomes one case for each slot character (every slot filled with it), none with the slot. */
function fillSlots(payload: XssPayload): XssPayload[] {
  if (!HAS_SLOT.test(payload.payload)) return [payload];
  return SLOT_CHARACTERS.map(([name, character]) => ({
    ...payload,
    id: `${payload.id}-${name}`,
    payload: payload.payload.replace(SLOT, character),
  }));
}

export const DOMPURIFY_CASES = corpus('dompurify');
export const HTML5SEC_CASES = corpus('h5sc').flatMap(fillSlots);
/** Every case: 218 of DOMPurify, 133 html5sec vectors as written and 6 with slots, 72 once filled. */
export const XSS_PAYLOADS = [...DOMPURIFY_CASES, ...HTML5SEC_CASES];
