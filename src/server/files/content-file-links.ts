import { nextMidnight, signedLinks } from '../lib/signed-links.ts';
import type { Executor } from '../db/database.ts';

const links = signedLinks('content_file_link_key', 'content-file');
const DAY_MS = 24 * 60 * 60 * 1000;

/** A content file's path as the site writes it: `/files/{id}/{name}`, in an attribute or a CSS url(). */
const FILE_PATH = /(["'(])(\/files\/(\d{1,15})\/[^"'()?#\s<>]*)(?=["')])/g;

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
      html.replace(
        FILE_PATH,
        (_whole, open: string, link: string, id: string) =>
          `${open}${path(Number(id), link).replaceAll('&', '&amp;')}`,
      ),
  };
}

export const isValidContentFileLink = links.isValid;
