/**
 * Which network addresses outbound web fetches may reach. Public unicast only, unless the
 * operator allow-lists a host name or a CIDR (WEB_ALLOWED_HOSTS): loopback, private
 * (RFC 1918, ULA fc00::/7), link-local (169.254/16 and so the metadata address
 * 169.254.169.254, fe80::/10), CGNAT 100.64/10, unspecified, broadcast, multicast and the
 * other special-purpose ranges are refused. An IPv4-mapped IPv6 address (::ffff:10.0.0.1)
 * is judged as the IPv4 address it maps, so it cannot smuggle a private one past the check;
 * an IPv4-compatible one (::/96, deprecated) is refused.
 *
 * The range table is ipaddr.js's (a maintained library that names every IANA
 * special-purpose block), so we only decide "anything but `unicast` is refused" and do not
 * keep our own list of blocks.
 */
import ipaddr from 'ipaddr.js';

/** Thrown by parseHostAllowList for an entry that is neither a host name, an IP nor a CIDR. */
export class HostAllowListError extends Error {}

/** Operator exceptions: host names (exact, case-insensitive) and CIDRs (or single IPs). */
export class HostAllowList {
  private constructor(
    private readonly names: ReadonlySet<string>,
    private readonly cidrs: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>,
  ) {}

  /** Parses `docs.internal`, `10.0.0.0/8`, `127.0.0.1`, `fd00::/8`; throws naming a bad entry. */
  static parse(entries: readonly string[]): HostAllowList {
    const names = new Set<string>();
    const cidrs: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
    for (const raw of entries) {
      const entry = raw
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1');
      if (!entry) continue;
      if (entry.includes('/')) {
        try {
          cidrs.push(normaliseCidr(ipaddr.parseCIDR(entry)));
        } catch {
          throw new HostAllowListError(`"${raw}" is not a valid CIDR (e.g. 10.0.0.0/8 or fd00::/8)`);
        }
      } else if (ipaddr.isValid(entry)) {
        const ip = unmapped(ipaddr.parse(entry));
        cidrs.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(entry)) {
        names.add(entry);
      } else {
        throw new HostAllowListError(`"${raw}" is neither a host name, an IP address nor a CIDR`);
      }
    }
    return new HostAllowList(names, cidrs);
  }

  static readonly empty = HostAllowList.parse([]);

  /** Whether the operator allowed this host name (lowercase, no brackets). */
  allowsName(host: string): boolean {
    return this.names.has(host.toLowerCase());
  }

  /** Whether an allowed CIDR holds this address. */
  allowsAddress(address: string): boolean {
    const ip = unmapped(ipaddr.parse(address));
    return this.cidrs.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
  }
}

function normaliseCidr([ip, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(ip as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [ip, bits];
}

/** The IPv4 address an IPv4-mapped IPv6 address stands for, else the address itself. */
function unmapped(ip: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}

/**
 * The ipaddr.js range name of an address (`unicast` = public), IPv4-mapped judged as IPv4.
 * IPv4-compatible IPv6 (`::a.b.c.d`, ::/96, deprecated by RFC 4291) is `ipv4Compatible`:
 * ipaddr.js calls `::7f00:1` unicast although it names 127.0.0.1, and nothing public lives
 * there.
 */
export function addressRange(address: string): string {
  const ip = unmapped(ipaddr.parse(address.replace(/^\[(.*)\]$/, '$1')));
  if (ip.kind() === 'ipv6') {
    const parts = (ip as ipaddr.IPv6).parts;
    if (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7] > 1)) return 'ipv4Compatible';
  }
  return ip.range();
}

/**
 * Why `address` (resolved from `host`) may not be reached, or undefined when it may: public
 * unicast, an allowed host name, or an allowed CIDR.
 */
export function refusedAddress(host: string, address: string, allow: HostAllowList): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  if (allow.allowsName(host.replace(/^\[(.*)\]$/, '$1')) || allow.allowsAddress(address)) return undefined;
  const range = addressRange(address);
  return range === 'unicast'
    ? undefined
    : `${host} resolves to ${address} (${range}), which is not a public address; an operator can allow it with WEB_ALLOWED_HOSTS`;
}
