import net from 'node:net';
import type { TrustProxy } from '../config/config.ts';

/** The eight 16-bit groups of an IPv6 address (a zone such as `%eth0` ignored); null for anything else. */
function ipv6Groups(address: string): number[] | null {
  const plain = address.split('%')[0] ?? '';
  if (!net.isIPv6(plain)) return null;
  let text = plain;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

/**
 * The client a per-address limit counts: an IPv4 address as it is (an IPv4-mapped IPv6 one as IPv4), an IPv6 address
 * by its /64, since a single host or home connection is given a whole /64 and could otherwise take a new address for
 * every request.
 */
export function clientKey(request: { ip: string }): string {
  const address = request.ip;
  if (net.isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const [, , , , , mapped = 0, high = 0, low = 0] = groups;
  if (groups.slice(0, 5).every((group) => group === 0) && mapped === 0xffff) {
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * TRUST_PROXY as Fastify takes it. A number becomes a function of the hop: Fastify's own number trusts no peer at
 * all, and its `true` takes the leftmost entry, which the client writes itself.
 */
export function proxyTrust(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
