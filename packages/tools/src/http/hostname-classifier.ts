import { ERROR_CODES, SDKError } from '@lousho/core';
import type { AddressCategory } from './address-classifier.js';

/** Why a host name is refused before any lookup (`localhost`, `.internal`, a metadata host, ...). */
export interface HostnameClassification {
  category: Exclude<AddressCategory, 'public' | 'special'>;
  reason: string;
}

// Names of instance-metadata services; they must never be reachable by default.
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

// Suffixes used for internal names only (RFC 6761/6762/8375 and widespread conventions).
const PRIVATE_SUFFIXES: readonly string[] = [
  'internal',
  'local',
  'localdomain',
  'lan',
  'home',
  'home.arpa',
  'intranet',
  'corp',
  'private',
];

/** Lower-case, without brackets or trailing dots: the form every hostname comparison uses. */
export function normalizeHostname(hostname: string): string {
  let name = hostname.trim().toLowerCase();
  if (name.startsWith('[') && name.endsWith(']')) name = name.slice(1, -1);
  while (name.endsWith('.')) name = name.slice(0, -1);
  return name;
}

/**
 * Recognises names that point inside a network whatever they resolve to right now: `localhost`,
 * cloud metadata names (`metadata.google.internal`), internal-only suffixes (`.internal`, `.local`,
 * ...) and single-label names (which resolve through local search domains).
 * Returns undefined for an ordinary public-looking name. Does not handle IP literals.
 */
export function classifyHostname(hostname: string): HostnameClassification | undefined {
  const name = normalizeHostname(hostname);
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return { category: 'loopback', reason: `'${name}' always points at this machine` };
  }
  if (METADATA_NAMES.has(name)) {
    return { category: 'metadata', reason: `'${name}' is a cloud metadata endpoint` };
  }
  const suffix = PRIVATE_SUFFIXES.find((candidate) => name === candidate || name.endsWith(`.${candidate}`));
  if (suffix) {
    return { category: 'private', reason: `'.${suffix}' names belong to internal networks` };
  }
  if (!name.includes('.')) {
    return { category: 'private', reason: `single-label name '${name}' resolves inside the local network` };
  }
  return undefined;
}

/**
 * Compiles an `allowedHosts` entry: an exact hostname ("api.example.com") or a wildcard for its
 * subdomains ("*.example.com", which does not match "example.com" itself).
 */
export function compileHostMatcher(entry: string): (hostname: string) => boolean {
  const pattern = normalizeHostname(entry);
  const rest = pattern.startsWith('*.') ? pattern.slice(2) : pattern;
  if (rest.length === 0 || /[/\s@*?#]/.test(rest)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `allowedHosts entry '${entry}' is not a hostname; use forms like 'api.example.com' or '*.example.com'.`, { hint: `Fix or remove the allowedHosts entry.` });
  }
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1); // ".example.com"
    return (hostname) => normalizeHostname(hostname).endsWith(suffix);
  }
  return (hostname) => normalizeHostname(hostname) === pattern;
}
