import { isIP } from 'node:net';

/** True for hosts only this machine can reach: `localhost`, 127.0.0.0/8, ::1 (and its v4-mapped form). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === 'localhost') return true;
  const mapped = bare.toLowerCase().startsWith('::ffff:') ? bare.slice(7) : bare;
  if (isIP(mapped) === 4) return mapped.startsWith('127.');
  return isIP(bare) === 6 && /^(?:0*:)*:?0*1$/.test(bare);
}
