import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesMatchType, mediaTypeOfBytes, MemoryFileStore, readAll } from '../../src/index.js';
import { storeUpload } from '../../src/http/files.js';
import { viewOfRequest } from '../../src/http/request-view.js';
import { essenceOf } from '@lousho/protocol';

const SIGNATURES: Record<string, number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/gif': [...'GIF89a'].map((c) => c.charCodeAt(0)),
  'image/webp': [...'RIFF'].map((c) => c.charCodeAt(0)).concat([1, 2, 3, 4], [...'WEBP'].map((c) => c.charCodeAt(0))),
  'application/pdf': [...'%PDF-'].map((c) => c.charCodeAt(0)),
};
const TYPES = [...Object.keys(SIGNATURES), 'text/plain', 'application/json'];
const bytes = fc.uint8Array({ maxLength: 64 });
const type = fc.constantFrom(...TYPES);

/** A file as the type's signature (or none) followed by any bytes, and the type it is sent as. */
const upload = fc.record({ signedAs: fc.constantFrom(...Object.keys(SIGNATURES), undefined), rest: bytes, sentAs: type, cuts: fc.array(fc.nat(80), { maxLength: 6 }) });

function split(all: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.min(c, all.length)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const point of [...points, all.length]) {
    if (point > at) out.push(all.slice(at, point));
    at = point;
  }
  return out;
}

describe('upload signature check (property)', () => {
  it('a signed type is accepted exactly when the bytes start with its signature; an image signature is never accepted as another type', () => {
    fc.assert(
      fc.property(upload, ({ signedAs, rest, sentAs }) => {
        const all = new Uint8Array([...(signedAs ? SIGNATURES[signedAs]! : []), ...rest]);
        const found = mediaTypeOfBytes(all);
        if (signedAs) expect(found).toBe(signedAs);
        const accepted = bytesMatchType(sentAs, all);
        if (sentAs in SIGNATURES) expect(accepted).toBe(found === sentAs);
        else expect(accepted).toBe(!(found ?? '').startsWith('image/'));
      }),
      { numRuns: 500 },
    );
  });

  it('the handler decides the same whatever chunks the body comes in, and stores exactly the bytes sent (or nothing)', async () => {
    await fc.assert(
      fc.asyncProperty(upload, async ({ signedAs, rest, sentAs, cuts }) => {
        const all = new Uint8Array([...(signedAs ? SIGNATURES[signedAs]! : []), ...rest]);
        const chunks = split(all, cuts);
        const body = new ReadableStream<Uint8Array>({ start: (c) => (chunks.forEach((chunk) => c.enqueue(chunk)), c.close()) });
        const request = new Request('http://x/sessions/s/files?name=f', { method: 'POST', body, headers: { 'content-type': sentAs }, duplex: 'half' } as RequestInit);
        const files = new MemoryFileStore();
        const limits = { maxFileBytes: 1000, fileTypes: TYPES };
        let stored: Uint8Array | undefined;
        try {
          const file = await storeUpload(viewOfRequest(request), new URL(request.url), 's', files, limits);
          stored = await readAll((await files.get(file.id))!.body);
        } catch (error) {
          expect((error as { code?: string }).code).toBe('LOUSHO_FILE_TYPE_REFUSED');
        }
        expect(stored !== undefined).toBe(bytesMatchType(sentAs, all));
        if (stored) expect(stored).toEqual(all);
        else expect(await files.deleteSession('s')).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('essenceOf reads any header and gives a lower-case type/subtype or nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (header) => {
        const essence = essenceOf(header);
        if (essence !== undefined) {
          expect(essence).toMatch(/^[a-z0-9][^/\s;]*\/[a-z0-9][^/\s;]*$/);
          expect(header.toLowerCase()).toContain(essence);
        }
      }),
    );
    // Bounded: a type longer than 127 + 1 + 127 characters is no type.
    const long = 'a'.repeat(200_000);
    expect(essenceOf(`${long}/${long}`)).toBeUndefined();
  });
});
