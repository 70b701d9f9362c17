import { nextMidnight, signedLinks } from '../lib/signed-links.ts';
import type { Executor } from '../db/database.ts';

const links = signedLinks('content_file_link_key', 'content-file');
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A content file's path as the site writes it, `/files/{id}/{name}`, as a whole attribute value in double or single
 * quotes (the name may hold the other quote or brackets: encodeURIComponent keeps them).
 */
const FILE_PATHS = [/"(\/files\/(\d{1,15})\/[^"?#\s<>]*)"/g, /'(\/files\/(\d{1,15})\/[^'?#\s<>]*)'/g];

/**
 * For content only signed-in visitors read: signs the links to its files, so that a visitor the server knows by the
 * `x-auth-token` header alone (the site's own calls carry it, a link or an <img> does not) still gets them. A link
 * lasts from one to two days (it runs from the next midnight, so a page read twice in a day carries the same one),
 * and opens that one file only.
 */
export async function contentLinkSigner(db: Executor, now = Date.now()) {
  const sign = await links.signer(db);
  const expires = nextMidnight(now) + DAY_MS;
  const path = (fileId: number, link: string) => `${link}?${sign(fileId, expires)}`;
  return {
    path,
    /** Every `/files/{id}/…` link in a stored fragment, signed (its `&` written as HTML writes it). */
    html: (html: string) =>
      FILE_PATHS.reduce(
        (text, pattern) =>
          text.replace(pattern, (whole, link: string, id: string) => {
            const quote = whole[0]!;
            return `${quote}${path(Number(id), link).replaceAll('&', '&amp;')}${quote}`;
          }),
        html,
      ),
  };
}

export const isValidContentFileLink = links.isValid;
