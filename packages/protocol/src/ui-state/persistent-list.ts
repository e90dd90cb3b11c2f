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
  declare shared: Shared | undefined;
  /** How many elements it holds (a field rather than a getter: read on every event). */
  declare readonly length: number;
  readonly #base: T[];
  readonly #size: number;
  /** The last elements: at most `LIST_WINDOW`, and at least one unless the list is empty. */
  readonly #tail: T[];
  #array: T[] | undefined;

  constructor(base: T[], size: number, tail: T[], shared?: Shared) {
    this.#base = base;
    this.#size = size;
    this.#tail = tail;
    this.shared = shared;
    this.length = size + tail.length;
  }

  /** A list holding a copy of `items`. */
  static from<T, Shared = unknown>(items: readonly T[]): PersistentList<T, Shared> {
    const size = Math.max(items.length - LIST_WINDOW, 0);
    return new PersistentList(items.slice(0, size), size, items.slice(size));
  }

  at(index: number): T | undefined {
    const size = this.#size;
    return index < size ? this.#base[index] : this.#tail[index - size];
  }

  push(item: T): PersistentList<T, Shared> {
    return this.set(this.length, item);
  }

  /** Replaces one element (or appends at `length`): O(LIST_WINDOW) near the end, O(n) before it. */
  set(index: number, item: T): PersistentList<T, Shared> {
    let base = this.#base;
    let size = this.#size;
    let tail = this.#tail;
    if (index < size) {
      base = base.slice(0, size);
      base[index] = item;
    } else {
      tail = tail.slice();
      tail[index - size] = item;
      if (tail.length > LIST_WINDOW) {
        // Someone appended to the shared buffer past this version: start a private copy.
        if (base.length !== size) base = base.slice(0, size);
        base.push(tail.shift()!);
        size++;
      }
    }
    return new PersistentList(base, size, tail, this.shared);
  }

  /** The elements as a plain array: built on first read, then the same array every time. */
  toArray(): readonly T[] {
    // Shared by every reader of this version: typed readonly, not frozen (freezing costs per event).
    // A short list is its tail, which no version changes once made: handed out without a copy.
    // The buffer's elements up to the end of this version (a later version may have appended
    // others there), then this version's tail.
    return this.#size ? (this.#array ??= this.#base.slice(0, this.#size).concat(this.#tail)) : this.#tail;
  }
}

/** The list a `ListView` shows (undefined for any other object, e.g. a state parsed from JSON). */
export let listOf: <L extends PersistentList<unknown, any>>(value: object) => L | undefined;

const LIST_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  get(this: object) {
    return listOf(this)!.toArray();
  },
};

/**
 * The base of the objects that show a `PersistentList` as a plain array property: a state's
 * `messages`, a message's `parts`. Up to a limit the property is a plain data property, copied
 * per change (a copy that short costs less than defining an accessor). Past it, it is an own
 * enumerable accessor that builds the array on first read and then returns the same one: it
 * still looks like a plain property to spread, JSON.stringify, structuredClone and deep-equality
 * checks, and a change no longer costs a copy of the whole list.
 */
export class ListView {
  readonly #list: PersistentList<unknown>;

  static {
    listOf = <L>(value: object) => (#list in value ? (value.#list as L) : undefined);
  }

  constructor(list: PersistentList<unknown, any>) {
    this.#list = list;
  }

  /** Shows the list as `key` through an accessor (the eager case is a plain assignment in the subclass: a fixed key is faster). */
  protected lazy(key: string): void {
    Object.defineProperty(this, key, LIST_PROPERTY);
  }
}
