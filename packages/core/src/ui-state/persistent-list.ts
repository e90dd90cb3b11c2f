/** How many elements at the end of a list can be replaced at constant cost. */
export const LIST_WINDOW = 8;

/**
 * An immutable list built for a chat transcript and for the parts of a streaming message:
 * appending, and replacing one of the last `LIST_WINDOW` elements, cost O(LIST_WINDOW) whatever
 * the length; the plain array is built only when someone reads it (then cached).
 *
 * The last elements live in `tail`, a small array private to each version. Elements before them
 * live in `base`, an append-only buffer shared by every version of the list: a version owns
 * `base[0 .. size)` and never looks past it, so a later version may append to the same buffer
 * without changing what an earlier one sees. A version that is not at the end of the buffer (an
 * older state that gets a new event), or that replaces an element before the tail, copies first.
 */
export class PersistentList<T, Shared = unknown> {
  /**
   * Data for every version derived from this one by `push` and `set` (not from versions made
   * before it was set): the message list keeps its tool-call index here.
   */
  shared: Shared | undefined;
  readonly #base: T[];
  readonly #size: number;
  /** The last elements: at most `LIST_WINDOW`, and at least one unless the list is empty. */
  readonly #tail: T[];
  #array: readonly T[] | undefined;

  constructor(base: T[], size: number, tail: T[], shared?: Shared) {
    this.#base = base;
    this.#size = size;
    this.#tail = tail;
    this.shared = shared;
  }

  /** A list holding a copy of `items`. */
  static from<T, Shared = unknown>(items: readonly T[]): PersistentList<T, Shared> {
    const size = Math.max(items.length - LIST_WINDOW, 0);
    return new PersistentList(items.slice(0, size), size, items.slice(size));
  }

  get length(): number {
    return this.#size + this.#tail.length;
  }

  /** The last element (undefined when empty). */
  get last(): T | undefined {
    return this.#tail[this.#tail.length - 1];
  }

  at(index: number): T | undefined {
    const size = this.#size;
    return index < size ? this.#base[index] : this.#tail[index - size];
  }

  push(item: T): PersistentList<T, Shared> {
    const tail = [...this.#tail, item];
    let base = this.#base;
    let size = this.#size;
    if (tail.length > LIST_WINDOW) {
      // Someone appended to the shared buffer past this version (or there is none yet; an empty
      // list never shares one with every other empty list): start a private copy.
      if (base.length !== size || !size) base = base.slice(0, size);
      base.push(tail.shift()!);
      size++;
    }
    return new PersistentList(base, size, tail, this.shared);
  }

  /** Replaces one element: O(LIST_WINDOW) near the end, O(n) before it. */
  set(index: number, item: T): PersistentList<T, Shared> {
    const size = this.#size;
    const inTail = index >= size;
    const copy = inTail ? this.#tail.slice() : this.#base.slice(0, size);
    copy[inTail ? index - size : index] = item;
    return new PersistentList(inTail ? this.#base : copy, size, inTail ? copy : this.#tail, this.shared);
  }

  /** The elements as a plain array: built on first read, then the same array every time. */
  toArray(): readonly T[] {
    // Shared by every reader of this version: typed readonly, not frozen (freezing costs per event).
    // A short list is its tail, which no version changes once made: handed out without a copy.
    const size = this.#size;
    return size ? (this.#array ??= this.#base.slice(0, size).concat(this.#tail)) : this.#tail;
  }
}
