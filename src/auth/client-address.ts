/**
 * The address an anonymous caller is rate-limited by. `X-Forwarded-For` is honoured only
 * when the direct peer is a trusted proxy (exact IPs or CIDRs in TRUSTED_PROXIES); then the
 * right-most address that is not itself a trusted proxy is the client.
 */
import net from 'node:net';

export type TrustCheck = (address: string) => boolean;

/** Strips IPv4-mapped IPv6 (`::ffff:1.2.3.4` → `1.2.3.4`) and surrounding brackets. */
export function normaliseAddress(address: string): string {
  const a = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? mapped[1] : a;
}

/** Builds a matcher for exact addresses and CIDR ranges. Throws on an unparsable entry. */
export function trustedProxyMatcher(entries: readonly string[]): TrustCheck {
  if (entries.length === 0) return () => false;
  const list = new net.BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    const [addr, bits] = entry.split('/');
    const ip = normaliseAddress(addr);
    const family = net.isIP(ip);
    if (family === 0) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(ip, type);
    else {
      const prefix = Number(bits);
      if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`TRUSTED_PROXIES: "${entry}" has a bad prefix length`);
      list.addSubnet(ip, prefix, type);
    }
  }
  return (address) => {
    const ip = normaliseAddress(address);
    const family = net.isIP(ip);
    return family !== 0 && list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** The client address for a request from `peer` carrying `forwardedFor` (may be empty). */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, isTrusted: TrustCheck): string {
  const direct = normaliseAddress(peer ?? '') || 'unknown';
  if (!forwardedFor || !isTrusted(direct)) return direct;
  const hops = forwardedFor.split(',').map(normaliseAddress).filter(Boolean);
  let client = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (net.isIP(hops[i]) === 0) break; // garbage from an untrusted hop: stop at the last good one
    client = hops[i];
    if (!isTrusted(client)) break;
  }
  return client;
}
