import { ERROR_CODES, SDKError } from '@lousho/core';
import ipaddr from 'ipaddr.js';

/**
 * How an IP address is treated by the HTTP tool's SSRF guard.
 *
 * - `public`: globally routable; always allowed.
 * - `loopback`: this machine (127/8, ::1); allowed with `allowLoopback`.
 * - `private`: RFC 1918, CGNAT, IPv6 unique-local and site-local; allowed with `allowPrivateNetwork`.
 * - `link-local`: 169.254/16, fe80::/10; allowed with `allowPrivateNetwork`.
 * - `metadata`: cloud instance-metadata endpoints; only an explicit `allowedAddresses` entry allows them.
 * - `special`: unspecified, broadcast, multicast, documentation, benchmarking, reserved and
 *   unallocated space, and tunnels whose real target cannot be read from the address (Teredo,
 *   local-use NAT64); only an explicit `allowedAddresses` entry allows them.
 */
export type AddressCategory = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'special';

/** What an IP address is (public, private, loopback, link-local, ...), as the SSRF policy sees it. */
export interface AddressClassification {
  /** The address in its canonical text form. */
  address: string;
  category: AddressCategory;
  /** Human-readable name of the range, used in error messages. */
  range: string;
}

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;
type IPAddress = IPv4 | IPv6;

// Instance-metadata services of the big clouds. Most sit inside ranges that are refused anyway;
// listing them keeps them refused even when private networks are allowed.
const METADATA_ADDRESSES: ReadonlySet<string> = new Set(
  [
    '169.254.169.254', // AWS, GCP, Azure, OCI, DigitalOcean, ...
    '169.254.170.2', // AWS ECS task metadata
    '169.254.170.23', // AWS EKS pod identity
    '100.100.100.200', // Alibaba Cloud
    '192.0.0.192', // Oracle Cloud (legacy)
    'fd00:ec2::254', // AWS over IPv6
    'fd00:ec2::23', // AWS EKS pod identity over IPv6
    'fd20:ce::254', // GCP over IPv6
  ].map((text) => ipaddr.parse(text).toNormalizedString()),
);

const IPV4_CATEGORIES: Record<string, AddressCategory> = {
  unicast: 'public',
  as112: 'public',
  amt: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private',
  linkLocal: 'link-local',
  unspecified: 'special',
  broadcast: 'special',
  multicast: 'special',
  reserved: 'special',
};

const IPV4_RANGE_NAMES: Record<string, string> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private network',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  linkLocal: 'link-local (169.254.0.0/16)',
  unspecified: 'unspecified (0.0.0.0/8)',
  broadcast: 'broadcast',
  multicast: 'multicast',
  reserved: 'reserved',
};

const IPV6_CATEGORIES: Record<string, AddressCategory> = {
  loopback: 'loopback',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'link-local',
  as112v6: 'public',
  amt: 'public',
};

const IPV6_RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback',
  uniqueLocal: 'unique-local (fc00::/7)',
  deprecatedSiteLocal: 'site-local (fec0::/10)',
  linkLocal: 'link-local (fe80::/10)',
  unspecified: 'unspecified (::)',
  multicast: 'multicast',
  teredo: 'Teredo tunnel (2001::/32)',
  rfc6052: 'NAT64',
  discard: 'discard-only (100::/64)',
  reserved: 'reserved',
  benchmarking: 'benchmarking',
};

// Only 2000::/3 is allocated for global unicast; anything else left over is unallocated.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
// Well-known NAT64 prefix (RFC 6052): the IPv4 target is the last 32 bits.
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
// Deprecated IPv4-compatible addresses (::a.b.c.d).
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** Parses an IP literal (IPv6 may be wrapped in brackets). Returns undefined for anything else. */
export function parseIpAddress(text: string): IPAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return undefined;
  try {
    return ipaddr.parse(bare);
  } catch {
    return undefined;
  }
}

/** True when `text` is an IPv4 or IPv6 literal (brackets allowed). */
export function isIpAddress(text: string): boolean {
  return parseIpAddress(text) !== undefined;
}

/**
 * Says which kind of network an IP address belongs to. Addresses that embed an IPv4 address
 * (IPv4-mapped, IPv4-translated, NAT64, 6to4) are judged by the IPv4 address they reach.
 * Returns undefined when `text` is not an IP address.
 */
export function classifyAddress(text: string): AddressClassification | undefined {
  const parsed = parseIpAddress(text);
  if (!parsed) return undefined;
  return classifyParsed(parsed);
}

function classifyParsed(address: IPAddress): AddressClassification {
  return address.kind() === 'ipv4' ? classifyV4(address as IPv4) : classifyV6(address as IPv6);
}

function classifyV4(address: IPv4): AddressClassification {
  const text = address.toString();
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) {
    return { address: text, category: 'metadata', range: 'cloud metadata endpoint' };
  }
  const range = address.range();
  return {
    address: text,
    category: IPV4_CATEGORIES[range] ?? 'special',
    range: IPV4_RANGE_NAMES[range] ?? range,
  };
}

function classifyV6(address: IPv6): AddressClassification {
  const text = address.toString();
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) {
    return { address: text, category: 'metadata', range: 'cloud metadata endpoint' };
  }
  const embedded = embeddedIPv4(address);
  if (embedded) {
    const inner = classifyV4(embedded.address);
    return {
      address: text,
      category: inner.category,
      range: `${embedded.form} address of ${inner.address} (${inner.range})`,
    };
  }
  const range = address.range();
  const known = IPV6_CATEGORIES[range];
  if (known) return { address: text, category: known, range: IPV6_RANGE_NAMES[range] ?? range };
  if (range === 'unicast') {
    if (address.match(IPV4_COMPATIBLE)) {
      return { address: text, category: 'special', range: 'IPv4-compatible (deprecated, ::/96)' };
    }
    if (address.match(GLOBAL_UNICAST_V6)) return { address: text, category: 'public', range: 'public' };
    return { address: text, category: 'special', range: 'unallocated' };
  }
  return { address: text, category: 'special', range: IPV6_RANGE_NAMES[range] ?? range };
}

/** The IPv4 address an IPv6 address stands for, when it embeds one at a known place. */
function embeddedIPv4(address: IPv6): { form: string; address: IPv4 } | undefined {
  const parts = address.parts;
  const fromWords = (high: number | undefined, low: number | undefined): IPv4 =>
    new ipaddr.IPv4([((high ?? 0) >> 8) & 0xff, (high ?? 0) & 0xff, ((low ?? 0) >> 8) & 0xff, (low ?? 0) & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped') return { form: 'IPv4-mapped', address: fromWords(parts[6], parts[7]) };
  if (range === 'rfc6145') return { form: 'IPv4-translated', address: fromWords(parts[6], parts[7]) };
  if (range === 'rfc6052' && address.match(NAT64_WELL_KNOWN)) {
    return { form: 'NAT64', address: fromWords(parts[6], parts[7]) };
  }
  if (range === '6to4') return { form: '6to4', address: fromWords(parts[1], parts[2]) };
  return undefined;
}

/** An `allowedAddresses` entry: one address or a CIDR range. */
export interface AddressMatcher {
  readonly source: string;
  matches(address: string): boolean;
}

/**
 * Compiles an `allowedAddresses` entry ("10.0.0.5", "10.1.0.0/16", "fd12::/16").
 * Throws a TypeError naming the entry when it is neither an address nor a CIDR range.
 */
export function compileAddressMatcher(entry: string): AddressMatcher {
  let network: [IPAddress, number];
  try {
    network = entry.includes('/') ? ipaddr.parseCIDR(entry) : wholeAddress(ipaddr.parse(entry));
  } catch {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `allowedAddresses entry '${entry}' is not an IP address or CIDR range; use forms like '10.0.0.5' or '10.0.0.0/8'.`, { hint: `Fix or remove the allowedAddresses entry.` });
  }
  return {
    source: entry,
    matches(text) {
      const parsed = parseIpAddress(text);
      if (!parsed) return false;
      const candidates: IPAddress[] = [parsed];
      // An IPv4-mapped address reaches the IPv4 address it carries, so IPv4 entries match it too.
      if (parsed.kind() === 'ipv6') {
        const inner = embeddedIPv4(parsed as IPv6);
        if (inner) candidates.push(inner.address);
      }
      return candidates.some((candidate) => candidate.kind() === network[0].kind() && candidate.match(network));
    },
  };
}

function wholeAddress(address: IPAddress): [IPAddress, number] {
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
