/**
 * An immutable list built for a chat transcript: appending and replacing the last element are
 * O(1) whatever the length, and the plain array is built only when someone reads it (then cached).
 *
 * Elements before the last live in `base`, an append-only buffer shared by every version of the
 * list: a version owns `base[0 .. before)` and never looks past it, so a later version may
 * append to the same buffer without changing what an earlier one sees. A version that is not at
 * the end of the buffer (an older state that gets a new event) copies its part first.
 */
export class PersistentList<T> {
  readonly #base: T[];
  /** How many elements come before the last one (-1 when the list is empty). */
  readonly #before: number;
  readonly #last: T | undefined;
  #array: readonly T[] | undefined;

  constructor(base: T[], before: number, last: T | undefined) {
    this.#base = base;
    this.#before = before;
    this.#last = last;
  }

  /** A list holding a copy of `items`. */
  static from<T>(items: readonly T[]): PersistentList<T> {
    return new PersistentList(items.slice(0, -1), items.length - 1, items[items.length - 1]);
  }

  get length(): number {
    return this.#before + 1;
  }

  /** The last element (undefined when empty). */
  get last(): T | undefined {
    return this.#last;
  }

  at(index: number): T | undefined {
    return index === this.#before ? this.#last : index < this.#before ? this.#base[index] : undefined;
  }

  push(item: T): PersistentList<T> {
    const before = this.#before;
    // An empty list starts its own buffer (never one shared with every other empty list).
    let base = before < 0 ? [] : this.#base;
    if (before >= 0) {
      // Someone already appended to the shared buffer past this version: fork a private copy.
      if (base.length !== before) base = base.slice(0, before);
      base.push(this.#last as T);
    }
    return new PersistentList(base, before + 1, item);
  }

  /** Replaces one element; O(1) for the last one, O(n) for any other. */
  set(index: number, item: T): PersistentList<T> {
    const before = this.#before;
    if (index === before) return new PersistentList(this.#base, before, item);
    const base = this.#base.slice(0, before);
    base[index] = item;
    return new PersistentList(base, before, this.#last);
  }

  /** The elements as a plain array: built on first read, then the same array every time. */
  toArray(): readonly T[] {
    let array = this.#array;
    if (!array) {
      const copy = this.#base.slice(0, Math.max(this.#before, 0));
      if (this.#before >= 0) copy.push(this.#last as T);
      // Shared by every reader of this version: typed readonly, not frozen (freezing costs per event).
      array = this.#array = copy;
    }
    return array;
  }
}
