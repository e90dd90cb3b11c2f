import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../src/http/address-classifier.js';
import { createNetworkPolicy } from '../src/http/network-policy.js';
import { SsrfBlockedError } from '../src/http/http-errors.js';

/*
 * The forbidden ranges are written out here independently of the implementation (own bit math,
 * no ipaddr.js), so the property checks the classifier against the spec, not against itself.
 */
const FORBIDDEN_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes 255.255.255.255 broadcast
];

const toInt = (dotted: string): number => dotted.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
const toDotted = (value: number): string => [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
const inRange = (value: number, [base, prefix]: [string, number]): boolean =>
  Math.floor(value / 2 ** (32 - prefix)) === Math.floor(toInt(base) / 2 ** (32 - prefix));
const isForbiddenV4 = (value: number): boolean => FORBIDDEN_V4.some((range) => inRange(value, range));

const anyV4 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const forbiddenV4 = fc
  .tuple(fc.constantFrom(...FORBIDDEN_V4), fc.integer({ min: 0, max: 2 ** 32 - 1 }))
  .map(([[base, prefix], noise]) => toInt(base) + (noise % 2 ** (32 - prefix)));
const publicV4 = anyV4.filter((value) => !isForbiddenV4(value));

const hextet = fc.integer({ min: 0, max: 0xffff });
const hex = (value: number): string => value.toString(16);
const v4Hextets = (value: number): [string, string] => [hex(Math.floor(value / 65536)), hex(value % 65536)];

/** Random IPv6 inside `prefix/bits` (bits a multiple of 16 or given as a first-hextet mask). */
function v6In(firstHextets: readonly number[], maskFirst = 0xffff): fc.Arbitrary<string> {
  return fc.array(hextet, { minLength: 8, maxLength: 8 }).map((random) =>
    random
      .map((value, index) => {
        const fixed = firstHextets[index];
        if (fixed === undefined) return hex(value);
        if (index === firstHextets.length - 1) return hex((fixed & maskFirst) | (value & ~maskFirst & 0xffff));
        return hex(fixed);
      })
      .join(':'),
  );
}

const forbiddenV6 = fc.oneof(
  fc.constantFrom('::1', '::', '0:0:0:0:0:0:0:1'),
  v6In([0xfe80], 0xffc0), // link-local fe80::/10
  v6In([0xfc00], 0xfe00), // unique-local fc00::/7
  v6In([0xff00], 0xff00), // multicast ff00::/8
  v6In([0x2001, 0x0db8]), // documentation 2001:db8::/32
  forbiddenV4.map((v4) => `::ffff:${v4Hextets(v4).join(':')}`), // IPv4-mapped
  forbiddenV4.map((v4) => `::ffff:${toDotted(v4)}`), // IPv4-mapped, dotted form
  forbiddenV4.map((v4) => `::ffff:0:${v4Hextets(v4).join(':')}`), // IPv4-translated
  forbiddenV4.map((v4) => `64:ff9b::${v4Hextets(v4).join(':')}`), // NAT64
  fc.tuple(forbiddenV4, hextet).map(([v4, tail]) => `2002:${v4Hextets(v4).join(':')}::${hex(tail)}`), // 6to4
);

// Global unicast space well away from the special blocks inside 2000::/3.
const publicV6 = v6In([0x2400], 0xfc00).filter((text) => !text.startsWith('2001:') && !text.startsWith('2002:'));

const policy = createNetworkPolicy();
const refusedByPolicy = (address: string): boolean => {
  try {
    policy.checkHost(address);
    return false;
  } catch (error) {
    if (error instanceof SsrfBlockedError) return true;
    throw error;
  }
};

describe('address classifier (property)', () => {
  it('classifies an IPv4 address as public exactly when it lies outside every forbidden range', () => {
    fc.assert(
      fc.property(fc.oneof(anyV4, forbiddenV4), (value) => {
        const text = toDotted(value);
        const isPublic = classifyAddress(text)?.category === 'public';
        expect(isPublic).toBe(!isForbiddenV4(value));
        expect(refusedByPolicy(text)).toBe(isForbiddenV4(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses every address in the forbidden IPv6 ranges and IPv6 forms embedding a forbidden IPv4 address', () => {
    fc.assert(
      fc.property(forbiddenV6, (text) => {
        expect(classifyAddress(text)?.category).not.toBe('public');
        expect(refusedByPolicy(text)).toBe(true);
        expect(refusedByPolicy(`[${text}]`)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('allows public IPv4 and IPv6 addresses, also when embedded in IPv4-mapped or NAT64 form', () => {
    fc.assert(
      fc.property(publicV4, publicV6, (v4, v6) => {
        expect(refusedByPolicy(toDotted(v4))).toBe(false);
        expect(refusedByPolicy(`::ffff:${toDotted(v4)}`)).toBe(false);
        expect(refusedByPolicy(`64:ff9b::${v4Hextets(v4).join(':')}`)).toBe(false);
        expect(refusedByPolicy(v6)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('address classifier (examples)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'special'],
    ['255.255.255.255', 'special'],
    ['224.0.0.1', 'special'],
    ['ff02::1', 'special'],
    ['2001::1', 'special'], // Teredo: target cannot be read from the address
    ['64:ff9b:1::1', 'special'], // local-use NAT64
    ['::7f00:1', 'special'], // IPv4-compatible (deprecated)
    ['4000::1', 'special'], // unallocated
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
  ])('%s is %s', (address, category) => {
    expect(classifyAddress(address)?.category).toBe(category);
  });

  it('returns undefined for names', () => {
    expect(classifyAddress('example.com')).toBeUndefined();
  });
});
