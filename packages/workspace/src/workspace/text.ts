/** How many leading bytes are looked at to tell text from binary (as git does). */
const SNIFF_BYTES = 8000;

/** A file is binary when its first bytes hold a NUL, or are not valid UTF-8. */
export function isBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return true;
  try {
    // A multi-byte character cut at the end of the sniffed window is not a reason to call it binary.
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, trimPartialCharacter(head)));
    return false;
  } catch {
    return true;
  }
}

/** The length of `bytes` without a UTF-8 sequence cut off at its end. */
export function trimPartialCharacter(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = bytes[end - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}

export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

export const encodeText = (text: string): Uint8Array => new TextEncoder().encode(text);
