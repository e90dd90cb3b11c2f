import {
  classifyAddress,
  compileAddressMatcher,
  isIpAddress,
  type AddressCategory,
  type AddressClassification,
} from './address-classifier.js';
import { classifyHostname, compileHostMatcher, normalizeHostname } from './hostname-classifier.js';
import { SsrfBlockedError } from './http-errors.js';

/** Which destinations the HTTP tool may reach besides the public internet. */
export interface NetworkAccessOptions {
  /** Allow 127.0.0.0/8, ::1 and `localhost` names. Default false. */
  allowLoopback?: boolean;
  /**
   * Allow private networks: 10/8, 172.16/12, 192.168/16, CGNAT 100.64/10, IPv6 unique-local
   * fc00::/7 and link-local 169.254/16, fe80::/10, plus internal names (`*.internal`, `*.local`,
   * single-label names). Cloud metadata endpoints stay refused. Default false.
   */
  allowPrivateNetwork?: boolean;
  /**
   * Hostnames trusted as they are: a request to one of them skips every address check.
   * Exact names (`api.example.com`) or subdomain wildcards (`*.corp.example.com`).
   */
  allowedHosts?: readonly string[];
  /**
   * Addresses or CIDR ranges that may be reached whatever their range, e.g. `['10.2.0.0/16']`,
   * or `['169.254.169.254']` to deliberately reach a metadata endpoint.
   */
  allowedAddresses?: readonly string[];
}

/** The SSRF checks of one HTTP tool, built once from its options. */
export interface NetworkPolicy {
  /** True when the hostname is listed in `allowedHosts` (its addresses are not checked). */
  isTrustedHost(hostname: string): boolean;
  /** Checks a URL's host before anything is resolved: IP literals and internal-only names. Throws `SsrfBlockedError`. */
  checkHost(hostname: string): void;
  /** Checks one address the host resolved to. Throws `SsrfBlockedError`. */
  checkResolvedAddress(hostname: string, address: string): void;
}

/** The SSRF policy the `http` tool applies (private, loopback and metadata addresses refused unless allowed); use it to check URLs the same way in your own tools. */
export function createNetworkPolicy(options: NetworkAccessOptions = {}): NetworkPolicy {
  const trustedHosts = (options.allowedHosts ?? []).map(compileHostMatcher);
  const allowedAddresses = (options.allowedAddresses ?? []).map(compileAddressMatcher);

  const categoryAllowed = (category: AddressCategory): boolean => {
    switch (category) {
      case 'public':
        return true;
      case 'loopback':
        return options.allowLoopback === true;
      case 'private':
      case 'link-local':
        return options.allowPrivateNetwork === true;
      case 'metadata':
      case 'special':
        return false;
    }
  };

  const isTrustedHost = (hostname: string): boolean => trustedHosts.some((matches) => matches(hostname));

  const checkAddress = (hostname: string, address: string): void => {
    const classification = classifyAddress(address);
    if (!classification) {
      throw new SsrfBlockedError(`'${hostname}' resolved to '${address}', which is not an IP address.`, hostname);
    }
    if (categoryAllowed(classification.category)) return;
    if (allowedAddresses.some((matcher) => matcher.matches(classification.address))) return;
    throw new SsrfBlockedError(
      `${refusalMessage(hostname, classification)} ${howToAllow(classification.category)}`,
      hostname,
      classification,
      howToAllow(classification.category),
    );
  };

  return {
    isTrustedHost,
    checkHost(hostname) {
      if (isTrustedHost(hostname)) return;
      const name = normalizeHostname(hostname);
      if (isIpAddress(name)) {
        checkAddress(name, name);
        return;
      }
      const named = classifyHostname(name);
      if (named && !categoryAllowed(named.category)) {
        throw new SsrfBlockedError(
          `Refused to connect to '${name}': ${named.reason}. ${howToAllow(named.category)}`,
          name,
          undefined,
          howToAllow(named.category),
        );
      }
    },
    checkResolvedAddress(hostname, address) {
      if (isTrustedHost(hostname)) return;
      checkAddress(normalizeHostname(hostname), address);
    },
  };
}

function refusalMessage(hostname: string, classification: AddressClassification): string {
  const target =
    hostname === classification.address
      ? `'${classification.address}'`
      : `'${hostname}' (resolves to ${classification.address})`;
  return `Refused to connect to ${target}: ${classification.address} is in a blocked range (${classification.range}).`;
}

function howToAllow(category: AddressCategory): string {
  switch (category) {
    case 'loopback':
      return 'Set allowLoopback: true in createHttpTool() options to reach this machine.';
    case 'private':
    case 'link-local':
      return 'Set allowPrivateNetwork: true, or list the host in allowedHosts, in createHttpTool() options to reach internal services.';
    default:
      return 'Only an explicit allowedHosts or allowedAddresses entry in createHttpTool() options can allow it.';
  }
}
