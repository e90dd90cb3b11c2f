import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostAllowed, startAllowListProxy, type AllowListProxy } from '../../src/sandbox/allow-list-proxy.js';

// The host side of BubblewrapSandbox's network allow list (the sandboxed side is tested against
// bubblewrap in bubblewrap-sandbox.test.ts), on loopback only.

describe('hostAllowed', () => {
  it('matches exact names case-insensitively, and *.domain only for strict subdomains', () => {
    expect(hostAllowed(['registry.npmjs.org'], 'Registry.NPMJS.org.')).toBe(true);
    expect(hostAllowed(['registry.npmjs.org'], 'evil-registry.npmjs.org')).toBe(false);
    expect(hostAllowed(['*.github.com'], 'api.github.com')).toBe(true);
    expect(hostAllowed(['*.github.com'], 'github.com')).toBe(false);
    expect(hostAllowed(['*.github.com'], 'evilgithub.com')).toBe(false);
    expect(hostAllowed(['[::1]'], '[::1]')).toBe(true);
    expect(hostAllowed(['127.0.0.1'], '127.0.0.2')).toBe(false);
  });

  it('property: a *.domain rule allows exactly the names that end in .domain and are longer', () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,10}$/);
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 3 }), fc.oneof(fc.stringMatching(/^[a-zA-Z0-9.-]{0,30}$/), fc.tuple(label, label).map(([a, b]) => `${a}.${b}`)), (parts, host) => {
        const domain = parts.join('.');
        const expected = host.toLowerCase().replace(/\.$/, '').endsWith(`.${domain}`);
        expect(hostAllowed([`*.${domain}`], host)).toBe(expected);
      }),
    );
  });
});

describe('the allow-list proxy', () => {
  let dir: string;
  let upstream: Server;
  let port: number;
  let proxy: AllowListProxy;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lousho-proxy-test-'));
    upstream = createServer((socket) => {
      socket.resume();
      socket.end('HTTP/1.0 200 OK\r\n\r\nupstream\n');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    port = (upstream.address() as { port: number }).port;
    proxy = await startAllowListProxy(join(dir, 'proxy.sock'), ['127.0.0.1']);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const ask = (request: string | Uint8Array) =>
    new Promise<string>((resolve) => {
      const socket = connect(proxy.socketPath);
      let out = '';
      socket.on('data', (chunk) => (out += chunk));
      socket.on('close', () => resolve(out));
      socket.on('error', () => resolve(out));
      socket.write(request);
    });

  it('forwards an absolute-form request to an allowed host, and a CONNECT tunnel', async () => {
    expect(await ask(`GET http://127.0.0.1:${port}/x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)).toContain('upstream');
    expect(await ask(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\nping`)).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.0 200 OK/);
  });

  it('refuses other hosts (403), other request forms (400), a head without end (431), and says why', async () => {
    expect(await ask(`GET http://localhost:${port}/ HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403 Forbidden[\s\S]*localhost is not in the sandbox's network allow list/);
    expect(await ask(`CONNECT example.com:443 HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403/);
    expect(await ask('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await ask(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nX: ${'a'.repeat(20_000)}`)).toMatch(/^HTTP\/1\.1 431/);
  });

  it('reports an allowed host it cannot reach as 502', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await ask(`CONNECT 127.0.0.1:${freePort} HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
  });
});
