import type { AddressObject, ParsedMail } from 'mailparser';

/** Anything written like an address, as a mail client might show it: in a display name, a comment, a list. */
const ADDRESS_LIKE = /[^\s<>"(),;:[\]\\]+@[^\s<>"(),;:[\]\\]+/g;

const addressesIn = (text: string) => [...text.matchAll(ADDRESS_LIKE)].map((m) => m[0].toLowerCase());

const rawHeaders = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .filter((line) => line.key === name)
    .map((line) => line.line.slice(line.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' '));

/**
 * The one address a mail is from, or null when that is not plain: more than one From header or address, a group,
 * a display name or comment that shows another address (`<victim@example.com> <attacker@example.org>` shows the
 * first and is the second's to some readers, the first's to others), or a Sender that is someone else.
 */
export function singleSenderOf(mail: ParsedMail): string | null {
  const lines = rawHeaders(mail, 'from');
  const from = mail.from?.value ?? [];
  if (lines.length !== 1 || from.length !== 1 || from[0]!.group || !from[0]!.address) return null;
  const address = from[0]!.address.trim().toLowerCase();
  const shown = [...addressesIn(lines[0]!), ...addressesIn(from[0]!.name ?? '')];
  if (shown.some((other) => other !== address)) return null;
  const senders = rawHeaders(mail, 'sender');
  if (senders.length > 1) return null;
  if (senders.length === 1) {
    const sender = mail.headers.get('sender') as AddressObject | undefined;
    const value = sender?.value ?? [];
    if (value.length !== 1 || value[0]!.address?.trim().toLowerCase() !== address) return null;
    if (addressesIn(senders[0]!).some((other) => other !== address)) return null;
  }
  return address;
}

/** Relaxed alignment, near enough: one domain is the other or under it, and the shorter is more than a TLD. */
const aligned = (domain: string, fromDomain: string) => {
  const [short, long] = domain.length <= fromDomain.length ? [domain, fromDomain] : [fromDomain, domain];
  return short.includes('.') && (long === short || long.endsWith(`.${short}`));
};

/**
 * Whether the mailbox's own mail server vouched for the From address (IMAP_AUTHSERV_ID): the topmost
 * Authentication-Results it wrote (RFC 8601; those of any other authserv-id, which anyone on the way can write, are
 * ignored) shows DMARC passed, or DKIM or SPF passed for the From's domain; not if DMARC failed. Unset: not asked.
 */
export function vouchedFor(mail: ParsedMail, authservId: string | null, address: string): boolean {
  if (!authservId) return true;
  const ours = rawHeaders(mail, 'authentication-results')
    .map((value) => value.replace(/\([^()]*\)/g, ' ').trim())
    .find((value) => value.split(/[\s;]/, 1)[0]!.toLowerCase() === authservId.toLowerCase());
  if (!ours) return false;
  const fromDomain = address.slice(address.lastIndexOf('@') + 1);
  const results = ours
    .split(';')
    .slice(1)
    .map((part) => {
      const words = part.trim().split(/\s+/);
      const [method = '', result = ''] = (words[0] ?? '').toLowerCase().split('=');
      const props = new Map(
        words.slice(1).map((word) => {
          const at = word.indexOf('=');
          return [word.slice(0, at).toLowerCase(), word.slice(at + 1).toLowerCase()] as const;
        }),
      );
      return { method, result, props };
    });
  if (results.some((r) => r.method === 'dmarc' && r.result !== 'pass' && r.result !== 'none')) return false;
  return results.some(
    (r) =>
      r.result === 'pass' &&
      (r.method === 'dmarc' ||
        (r.method === 'dkim' && aligned(r.props.get('header.d') ?? '', fromDomain)) ||
        (r.method === 'spf' &&
          aligned((r.props.get('smtp.mailfrom') ?? '').replace(/^.*@/, ''), fromDomain))),
  );
}
