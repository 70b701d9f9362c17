import type { AddressObject, ParsedMail } from 'mailparser';
import {
  authservIdOf,
  parseAuthenticationResults,
  type AuthenticationResult,
} from './authentication-results.ts';

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

const DOMAIN_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/;

/** Relaxed alignment, near enough: one domain is the other or under it, and the shorter is more than a TLD. */
const aligned = (domain: string | undefined, fromDomain: string) => {
  if (domain === undefined || !DOMAIN_NAME.test(domain) || !DOMAIN_NAME.test(fromDomain)) return false;
  const [short, long] = domain.length <= fromDomain.length ? [domain, fromDomain] : [fromDomain, domain];
  return long === short || long.endsWith(`.${short}`);
};

/**
 * Whether the mailbox's own mail server vouched for the From address (IMAP_AUTHSERV_ID): the topmost
 * Authentication-Results it wrote (RFC 8601; those of any other authserv-id, which anyone on the way can write, are
 * ignored), read whole by the grammar or not at all, shows DMARC passed for the From's domain (its header.from), or
 * DKIM or SPF passed aligned with it; not if DMARC failed, or judged another From's domain. Unset: not asked.
 */
export function vouchedFor(mail: ParsedMail, authservId: string | null, address: string): boolean {
  if (!authservId) return true;
  const ours = rawHeaders(mail, 'authentication-results').find(
    (value) => authservIdOf(value)?.toLowerCase() === authservId.toLowerCase(),
  );
  const parsed = ours === undefined ? null : parseAuthenticationResults(ours);
  if (!parsed) return false;
  const fromDomain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  const dmarcFrom = (r: AuthenticationResult) => r.props.get('header.from')?.domain;
  const dmarc = parsed.results.filter((r) => r.method === 'dmarc');
  if (dmarc.some((r) => r.result !== 'pass' && r.result !== 'none')) return false;
  // A DMARC result about another domain means the server read another From than ours: nothing here is about it.
  if (dmarc.some((r) => dmarcFrom(r) !== undefined && dmarcFrom(r) !== fromDomain)) return false;
  return parsed.results.some(
    (r) =>
      r.result === 'pass' &&
      ((r.method === 'dmarc' && dmarcFrom(r) === fromDomain) ||
        (r.method === 'dkim' && aligned(r.props.get('header.d')?.domain, fromDomain)) ||
        (r.method === 'spf' && aligned(r.props.get('smtp.mailfrom')?.domain, fromDomain))),
  );
}
