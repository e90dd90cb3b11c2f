/**
 * Text from a model, a tool or an eval file made safe to print on a terminal: escape sequences (CSI
 * such as `ESC[2J`, OSC such as a title change or a hyperlink, and the rest) and every other control
 * character are removed, line breaks and tabs become spaces (one finding is one line), and
 * bidirectional overrides go too (they reorder what the reader sees). Linear: each pattern is a
 * single pass without nested repetition.
 */
const ESCAPES = new RegExp(
  [
    // A control string (OSC, DCS, SOS, PM, APC), up to its terminator or the end.
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?',
    // A control sequence (CSI): parameters, intermediates, the final byte.
    '(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]?',
    // Any other escape: intermediates and a final byte.
    '\\u001b[ -/]*[0-~]?',
  ].join('|'),
  'g',
);
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const BREAKS = /[\t\n\r]/g;

export function terminalText(text: string): string {
  return String(text).replace(ESCAPES, '').replace(CONTROLS, '').replace(BREAKS, ' ');
}
