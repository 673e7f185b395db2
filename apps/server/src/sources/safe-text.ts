// Characters XML 1.0 cannot carry (C0 controls but tab and newlines, U+FFFE/U+FFFF, and, with the `u` flag, lone
// surrogates), and the bidirectional overrides and isolates that could reorder the text around them in a reader.
const UNSAFE = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\u202A-\u202E\u2066-\u2069]/gu;

/** Text any XML or JSON document (and PostgreSQL, which refuses NUL) can carry, and no reader can be tricked by. */
export function cleanText(value: string): string {
  return value.replace(UNSAFE, "");
}
