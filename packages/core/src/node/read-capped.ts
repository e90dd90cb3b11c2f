import { open } from 'node:fs/promises';

/** What `readCapped` read: at most `maxBytes` of the file, and whether there was more. */
export interface CappedText {
  text: string;
  /** True when the file is longer than what was read. */
  truncated: boolean;
  /** The file's size in bytes (as it was when opened). */
  size: number;
}

/**
 * Reads at most `maxBytes` of a file as UTF-8: a file of any size costs at most that much time and
 * memory (a 300 MB file is never read whole to be refused). A character cut at the end is dropped.
 */
export async function readCapped(path: string, maxBytes: number): Promise<CappedText> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const want = Math.min(size, maxBytes) + 1;
    const buffer = Buffer.alloc(want);
    let filled = 0;
    while (filled < want) {
      const { bytesRead } = await handle.read(buffer, filled, want - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const truncated = filled > maxBytes;
    const bytes = buffer.subarray(0, Math.min(filled, maxBytes));
    return { text: new TextDecoder().decode(truncated ? withoutCutCharacter(bytes) : bytes), truncated, size: Math.max(size, filled) };
  } finally {
    await handle.close();
  }
}

/** `bytes` without a UTF-8 sequence cut off at its end. */
function withoutCutCharacter(bytes: Buffer): Buffer {
  let end = bytes.length;
  let back = 0;
  while (back < 4 && end - back - 1 >= 0 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead === undefined) return bytes;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (length > back + 1) end -= back + 1;
  return bytes.subarray(0, end);
}
