/**
 * The links the operator puts in the public site's footer ("Status", "Privacy", "Contact"): a few, each a short
 * label and an address on the web (http, https) or on this site (`/privacy`). Both the server's check and the admin
 * form read these, so the form says what the server would refuse before it is sent.
 */
export const FOOTER_LINKS_MAX = 5;
export const FOOTER_LABEL_MAX = 40;
export const FOOTER_URL_MAX = 500;

/** C0 and C1 control characters, DEL included. */
const hasControl = (text: string) =>
  [...text].some((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });

/** Why an address cannot be a footer link, or null when it can. */
export function footerUrlProblem(url: string): string | null {
  if (url === '') return 'is required';
  if (url.length > FOOTER_URL_MAX) return `must be at most ${FOOTER_URL_MAX} characters`;
  // Spaces, control characters and backslashes are where browsers and checks read an address differently.
  if (hasControl(url) || /[\s\\]/.test(url)) return 'must not contain spaces, control characters or \\';
  if (url.startsWith('/'))
    return url.startsWith('//') ? 'must be https://… or a path such as /privacy' : null;
  if (!/^https?:\/\//i.test(url)) return 'must be https://… or a path such as /privacy';
  try {
    return new URL(url).hostname ? null : 'must name a host';
  } catch {
    return 'is not a valid address';
  }
}

/** Why a label cannot be a footer link's, or null when it can. */
export function footerLabelProblem(label: string): string | null {
  if (label === '') return 'is required';
  if (label.length > FOOTER_LABEL_MAX) return `must be at most ${FOOTER_LABEL_MAX} characters`;
  if (hasControl(label)) return 'must not contain control characters';
  return null;
}
