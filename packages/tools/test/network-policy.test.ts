import { describe, expect, it } from 'vitest';
import { SsrfBlockedError } from '../src/http/http-errors.js';
import { createNetworkPolicy } from '../src/http/network-policy.js';

function refusal(run: () => void): SsrfBlockedError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof SsrfBlockedError) return error;
    throw error;
  }
}

describe('network policy: hostnames', () => {
  const policy = createNetworkPolicy();

  it.each([
    'localhost',
    'LOCALHOST.',
    'api.localhost',
    'metadata.google.internal',
    'metadata.google.internal.',
    'metadata',
    'instance-data.ec2.internal',
    'db.internal',
    'printer.local',
    'nas.home.arpa',
    'intranet',
  ])('refuses %s before resolving it', (hostname) => {
    const error = refusal(() => policy.checkHost(hostname));
    expect(error).toBeInstanceOf(SsrfBlockedError);
    expect(error?.code).toBe('LOUSHO_HTTP_DESTINATION_REFUSED');
  });

  it('lets ordinary public names through to the address check', () => {
    expect(refusal(() => policy.checkHost('example.com'))).toBeUndefined();
    expect(refusal(() => policy.checkHost('api.github.com'))).toBeUndefined();
  });

  it('refuses a public-looking name whose resolved address is private, naming both', () => {
    const error = refusal(() => policy.checkResolvedAddress('rebind.example.com', '10.0.0.7'));
    expect(error?.message).toContain('rebind.example.com');
    expect(error?.message).toContain('10.0.0.7');
    expect(error?.classification?.category).toBe('private');
  });
});

describe('network policy: options', () => {
  it('allowLoopback allows 127.0.0.1, ::1, ::ffff:127.0.0.1 and localhost, but not private ranges', () => {
    const policy = createNetworkPolicy({ allowLoopback: true });
    for (const host of ['127.0.0.1', '[::1]', '::ffff:127.0.0.1', 'localhost']) {
      expect(refusal(() => policy.checkHost(host))).toBeUndefined();
    }
    expect(refusal(() => policy.checkHost('10.0.0.1'))).toBeInstanceOf(SsrfBlockedError);
  });

  it('allowPrivateNetwork allows private, CGNAT, unique-local and link-local addresses but not loopback or metadata', () => {
    const policy = createNetworkPolicy({ allowPrivateNetwork: true });
    for (const address of ['10.0.0.1', '172.20.1.1', '192.168.0.10', '100.64.1.1', 'fd12::1', '169.254.10.10', 'fe80::1']) {
      expect(refusal(() => policy.checkResolvedAddress('svc.example.com', address))).toBeUndefined();
    }
    expect(refusal(() => policy.checkHost('db.internal'))).toBeUndefined();
    expect(refusal(() => policy.checkHost('127.0.0.1'))).toBeInstanceOf(SsrfBlockedError);
    expect(refusal(() => policy.checkHost('169.254.169.254'))).toBeInstanceOf(SsrfBlockedError);
    expect(refusal(() => policy.checkHost('metadata.google.internal'))).toBeInstanceOf(SsrfBlockedError);
    expect(refusal(() => policy.checkResolvedAddress('x.example.com', 'fd00:ec2::254'))).toBeInstanceOf(SsrfBlockedError);
  });

  it('allowedHosts trusts exact names and subdomain wildcards, whatever they resolve to', () => {
    const policy = createNetworkPolicy({ allowedHosts: ['api.corp.example', '*.svc.example'] });
    expect(refusal(() => policy.checkResolvedAddress('api.corp.example', '10.1.1.1'))).toBeUndefined();
    expect(refusal(() => policy.checkResolvedAddress('Orders.SVC.example.', '192.168.3.3'))).toBeUndefined();
    // The wildcard covers subdomains only, and other names stay checked.
    expect(refusal(() => policy.checkResolvedAddress('svc.example', '10.1.1.1'))).toBeInstanceOf(SsrfBlockedError);
    expect(refusal(() => policy.checkResolvedAddress('other.example', '10.1.1.1'))).toBeInstanceOf(SsrfBlockedError);
  });

  it('allowedAddresses allows single addresses and CIDR ranges, IPv4-mapped forms included', () => {
    const policy = createNetworkPolicy({ allowedAddresses: ['10.2.0.0/16', '169.254.169.254'] });
    expect(refusal(() => policy.checkResolvedAddress('a.example.com', '10.2.9.9'))).toBeUndefined();
    expect(refusal(() => policy.checkResolvedAddress('a.example.com', '::ffff:10.2.9.9'))).toBeUndefined();
    expect(refusal(() => policy.checkHost('169.254.169.254'))).toBeUndefined();
    expect(refusal(() => policy.checkResolvedAddress('a.example.com', '10.3.0.1'))).toBeInstanceOf(SsrfBlockedError);
  });

  it('rejects malformed allowlist entries when the policy is built', () => {
    expect(() => createNetworkPolicy({ allowedAddresses: ['10.0.0.0/99'] })).toThrow(/allowedAddresses entry '10.0.0.0\/99'/);
    expect(() => createNetworkPolicy({ allowedHosts: ['https://example.com/'] })).toThrow(/allowedHosts entry/);
  });

  it('says in the refusal which option would allow the destination', () => {
    const policy = createNetworkPolicy();
    expect(refusal(() => policy.checkHost('127.0.0.1'))?.message).toMatch(/allowLoopback/);
    expect(refusal(() => policy.checkHost('10.0.0.1'))?.message).toMatch(/allowPrivateNetwork/);
    expect(refusal(() => policy.checkHost('169.254.169.254'))?.message).toMatch(/allowedHosts or allowedAddresses/);
  });
});
