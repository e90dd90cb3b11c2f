/**
 * What an expression may read of a value: only a flow's own variables, and only their own data
 * properties. Nothing here calls a getter, a `toString` or any other code of the values.
 */

/** Names that are never read, whatever the value: the ways to a prototype or a constructor. */
const FORBIDDEN_NAMES = new Set(['constructor', '__proto__', 'prototype']);

export function isForbiddenName(name: string | number): boolean {
  return typeof name === 'string' && FORBIDDEN_NAMES.has(name);
}

/** A value an operator may take as is: anything but an object or a function. */
export function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/** Marker for "this value has no such property" when the caller must tell it from `undefined`. */
export const NO_PROPERTY: unique symbol = Symbol('no property');

/**
 * The own data property `key` of `target`, or `NO_PROPERTY`. Accessors count as absent: reading
 * them would run code. Strings expose their `length` and their characters, arrays their `length`
 * and elements, other objects their own data properties.
 */
export function ownProperty(target: object | string, key: string | number): unknown {
  if (typeof target === 'string') {
    if (key === 'length') return target.length;
    const index = typeof key === 'number' ? key : Number.NaN;
    return Number.isInteger(index) && index >= 0 && index < target.length ? target[index] : NO_PROPERTY;
  }
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor && 'value' in descriptor ? descriptor.value : NO_PROPERTY;
}

/** The kind of a value, as error messages name it. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'function':
      return 'a function';
    case 'undefined':
      return 'undefined';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'string':
      return 'a string';
    default:
      return `a ${typeof value}`;
  }
}
