/**
 * An immutable list built for a chat transcript: appending and replacing the last element are
 * O(1) whatever the length, and the plain array is built only when someone reads it (then cached).
 *
 * Elements before the last live in `base`, an append-only buffer shared by every version of the
 * list: a version owns `base[0 .. baseLength)` and never looks past it, so a later version may
 * append to the same buffer without changing what an earlier one sees. A version that is not at
 * the end of the buffer (an older state that gets a new event) copies its part first.
 */
export class PersistentList<T> {
  static readonly #empty = new PersistentList<never>([], 0, undefined, false);

  readonly #base: T[];
  readonly #baseLength: number;
  readonly #last: T | undefined;
  readonly #hasLast: boolean;
  #array: readonly T[] | undefined;

  private constructor(base: T[], baseLength: number, last: T | undefined, hasLast: boolean) {
    this.#base = base;
    this.#baseLength = baseLength;
    this.#last = last;
    this.#hasLast = hasLast;
  }

  static empty<T>(): PersistentList<T> {
    return PersistentList.#empty;
  }

  /** A list holding a copy of `items`. */
  static from<T>(items: readonly T[]): PersistentList<T> {
    if (items.length === 0) return PersistentList.#empty;
    return new PersistentList(items.slice(0, -1), items.length - 1, items[items.length - 1], true);
  }

  get length(): number {
    return this.#hasLast ? this.#baseLength + 1 : 0;
  }

  /** The last element (undefined when empty). */
  get last(): T | undefined {
    return this.#last;
  }

  at(index: number): T | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return index === this.#baseLength ? this.#last : this.#base[index];
  }

  push(item: T): PersistentList<T> {
    if (!this.#hasLast) return new PersistentList(this.#base, 0, item, true);
    let base = this.#base;
    // Someone already appended to the shared buffer past this version: fork a private copy.
    if (base.length !== this.#baseLength) base = base.slice(0, this.#baseLength);
    base.push(this.#last as T);
    return new PersistentList(base, this.#baseLength + 1, item, true);
  }

  replaceLast(item: T): PersistentList<T> {
    return new PersistentList(this.#base, this.#baseLength, item, true);
  }

  /** Replaces one element; O(n) unless it is the last one. */
  set(index: number, item: T): PersistentList<T> {
    if (index === this.#baseLength) return this.replaceLast(item);
    if (index < 0 || index > this.#baseLength) throw new RangeError(`PersistentList.set: index ${index} out of range`);
    const base = this.#base.slice(0, this.#baseLength);
    base[index] = item;
    return new PersistentList(base, this.#baseLength, this.#last, true);
  }

  /** The elements as a plain array: built on first read, then the same array every time. */
  toArray(): readonly T[] {
    let array = this.#array;
    if (array === undefined) {
      const copy = this.#base.slice(0, this.#baseLength);
      if (this.#hasLast) copy.push(this.#last as T);
      // Shared by every reader of this version: typed readonly, not frozen (freezing costs per event).
      array = this.#array = copy;
    }
    return array;
  }
}
