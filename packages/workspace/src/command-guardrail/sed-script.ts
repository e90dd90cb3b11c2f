/**
 * Reads a sed script far enough to tell whether it runs commands (`e`, `s///e`) or writes files
 * (`w`, `W`, `s///w`). GNU sed's grammar, one command at a time; anything it cannot read with
 * certainty is `'unknown'`, which the command guardrail refuses. Linear in the script's length.
 */
export type SedVerdict = 'safe' | 'runs' | 'writes' | 'unknown';

/** Commands that take no argument. */
const PLAIN = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
/** Commands whose argument runs to the end of the line: text (`a`, `i`, `c`), a file to read, a label. */
const TO_END_OF_LINE = new Set(['a', 'i', 'c', 'r', 'R', ':']);
/** Commands whose argument (a label or an exit code) runs to `;` or the end of the line. */
const TO_SEMICOLON = new Set(['b', 't', 'T', 'q', 'Q', 'L']);

export function readSedScript(script: string): SedVerdict {
  let i = 0;
  const at = () => script[i];
  const skipBlanks = () => {
    while (i < script.length && /[\s;]/.test(script[i]!)) i++;
  };
  /** Past a delimited part (`/re/`, the parts of `s` and `y`), escapes included; false when unclosed. */
  const skipDelimited = (delimiter: string): boolean => {
    for (; i < script.length; i++) {
      if (script[i] === '\\') i++;
      else if (script[i] === delimiter) {
        i++;
        return true;
      } else if (script[i] === '\n' && delimiter !== '\n') return false;
    }
    return false;
  };
  const skipAddress = (): boolean => {
    const c = at();
    if (c === undefined) return true;
    if (/[0-9$]/.test(c)) {
      while (i < script.length && /[0-9~$]/.test(script[i]!)) i++;
    } else if (c === '/') {
      i++;
      if (!skipDelimited('/')) return false;
      while (at() === 'I' || at() === 'M') i++;
    } else if (c === '\\') {
      const delimiter = script[i + 1];
      if (delimiter === undefined) return false;
      i += 2;
      if (!skipDelimited(delimiter)) return false;
      while (at() === 'I' || at() === 'M') i++;
    }
    return true;
  };
  const skipToEndOfLine = () => {
    while (i < script.length && script[i] !== '\n') i++;
  };
  while (i < script.length) {
    skipBlanks();
    if (i >= script.length) break;
    if (at() === '#') {
      skipToEndOfLine();
      continue;
    }
    if (!skipAddress()) return 'unknown';
    if (at() === ',') {
      i++;
      if (at() === '+' || at() === '~') i++;
      if (!skipAddress()) return 'unknown';
    }
    while (at() === ' ' || at() === '\t' || at() === '!') i++;
    const command = at();
    i++;
    if (command === undefined) return 'unknown';
    if (command === '{' || command === '}' || PLAIN.has(command)) continue;
    if (command === 'e') return 'runs';
    if (command === 'w' || command === 'W') return 'writes';
    if (TO_END_OF_LINE.has(command)) skipToEndOfLine();
    else if (TO_SEMICOLON.has(command)) {
      while (i < script.length && script[i] !== ';' && script[i] !== '\n' && script[i] !== '}') i++;
    } else if (command === 's' || command === 'y') {
      const delimiter = at();
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return 'unknown';
      i++;
      if (!skipDelimited(delimiter) || !skipDelimited(delimiter)) return 'unknown';
      if (command === 's') {
        while (i < script.length && /[gpiImMe0-9w]/.test(script[i]!)) {
          if (script[i] === 'e') return 'runs';
          if (script[i] === 'w') return 'writes';
          i++;
        }
      }
    } else return 'unknown';
  }
  return 'safe';
}
