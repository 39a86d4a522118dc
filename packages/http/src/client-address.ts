// The client address a request is counted against when it carries no valid credentials: the TCP
// peer, or — when the peer is a reverse proxy the administrator trusts (`TRUSTED_PROXIES`) — the
// nearest address in X-Forwarded-For that is not such a proxy. A client cannot pick its address by
// sending the header itself: an untrusted peer's header is ignored. IPv6 clients count per /64
// (one subscriber's usual allocation), so rotating addresses within it does not escape a limit.
import { BlockList, isIP } from 'node:net';
import type { H3Event } from 'h3';

export class TrustedProxiesError extends Error {
  override readonly name = 'TrustedProxiesError';
}

/** Reverse proxies whose X-Forwarded-For is believed: addresses, CIDR ranges, or `loopback`. */
export class TrustedProxies {
  private readonly list = new BlockList();

  /** `TRUSTED_PROXIES`: comma-separated `10.0.0.5`, `10.0.0.0/8`, `fd00::/8` or `loopback`; empty: none. */
  static parse(value: string | undefined): TrustedProxies | undefined {
    const entries = (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length === 0) return undefined;
    const trusted = new TrustedProxies();
    for (const entry of entries) trusted.add(entry);
    return trusted;
  }

  private add(entry: string): void {
    if (entry === 'loopback') {
      this.list.addSubnet('127.0.0.0', 8, 'ipv4');
      this.list.addAddress('::1', 'ipv6');
      return;
    }
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (family === 0 || extra !== undefined || !(length >= 0 && length <= bits)) {
      throw new TrustedProxiesError(`TRUSTED_PROXIES must list IP addresses, CIDR ranges (10.0.0.0/8) or loopback; not one: ${entry}`);
    }
    this.list.addSubnet(address, length, family === 4 ? 'ipv4' : 'ipv6');
  }

  has(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; other IPv6 addresses → their /64 prefix; anything else as it is. */
function bucketOf(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The address (or IPv6 /64) a request without valid credentials counts against; `unknown` without a socket. */
export function clientAddressOf(event: H3Event, trusted?: TrustedProxies): string {
  const peer = event.req.ip;
  if (!peer) return 'unknown';
  let client = peer;
  if (trusted?.has(peer)) {
    const forwarded = (event.req.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    // The nearest hop that is not a trusted proxy; every hop trusted: the farthest one.
    for (let index = forwarded.length - 1; index >= 0; index--) {
      client = forwarded[index]!;
      if (!trusted.has(client)) break;
    }
    if (isIP(client) === 0) client = peer;
  }
  return bucketOf(client);
}
