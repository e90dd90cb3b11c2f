import { ERROR_CODES, SDKError } from '../errors.js';
import { closestName } from './closest-name.js';

/**
 * The keys an options type has, as a runtime object. Typed `Record<keyof T, true>`, so an object
 * literal of this type must name every key of `T` and nothing else: the compiler keeps the runtime
 * list and the type in step, in both directions.
 */
export type OptionKeys<T> = Readonly<Record<keyof T, true>>;

/** Options the docs describe that this version does not build yet, with where they are documented. */
export type PlannedOptions = Readonly<Record<string, string>>;

/**
 * Names other libraries (or our other classes) use for one of these options, mapped to ours: they are
 * refused like any unknown key, with ours as the suggestion (`baseURL` → `host` for Ollama).
 */
export type OptionAliases = Readonly<Record<string, string>>;

/** An options object had a key that is not an option (or one that is documented but not built yet). */
export class UnknownOptionError extends SDKError {
  /** The key that was given. */
  readonly option: string;
  /** The closest known option, when one is close enough to be a typo. */
  readonly suggestion: string | undefined;

  constructor(where: string, option: string, suggestion: string | undefined, planned: string | undefined) {
    const shown = JSON.stringify(option).slice(1, -1).slice(0, 80);
    if (planned !== undefined) {
      super(ERROR_CODES.LOUSHO_UNSUPPORTED_OPTION, `${where} option \`${shown}\` is documented (${planned}) but not built in this version yet, so it would have no effect.`, {
        hint: `Remove \`${shown}\` until a version that supports it.`,
      });
    } else {
      super(ERROR_CODES.LOUSHO_UNKNOWN_OPTION, `${where} has no option \`${shown}\`${suggestion ? `: did you mean \`${suggestion}\`?` : '.'}`, {
        hint: suggestion ? `Rename \`${shown}\` to \`${suggestion}\`.` : `Remove \`${shown}\`; the options of ${where} are listed in its docs.`,
      });
    }
    this.name = 'UnknownOptionError';
    this.option = option;
    this.suggestion = suggestion;
  }
}

/**
 * Throws `LOUSHO_UNKNOWN_OPTION` for the first key of `value` that `known` does not list (naming the
 * closest known key), or `LOUSHO_UNSUPPORTED_OPTION` for a documented option that is not built yet.
 * `where` names the call in the message, e.g. `createAgent()`. Non-objects are left to the caller.
 */
export function checkOptionKeys(
  where: string,
  value: unknown,
  known: Readonly<Record<string, true>>,
  planned: PlannedOptions = {},
  aliases: OptionAliases = {},
): void {
  if (typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) {
    if (Object.prototype.hasOwnProperty.call(known, key)) continue;
    const plannedAt = Object.prototype.hasOwnProperty.call(planned, key) ? planned[key] : undefined;
    if (plannedAt !== undefined) throw new UnknownOptionError(where, key, undefined, plannedAt);
    const alias = Object.prototype.hasOwnProperty.call(aliases, key) ? aliases[key] : undefined;
    // A slip of a planned option's name is pointed at it too (then refused as not built).
    throw new UnknownOptionError(where, key, alias ?? closestName(key, [...Object.keys(known), ...Object.keys(planned)]), undefined);
  }
}
