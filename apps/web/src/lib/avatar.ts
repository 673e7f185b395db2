/** Up to two initials from a handle or display name: "jane_doe" → "JD", "curatedotfun" → "C". */
export function initialsOf(name: string): string {
  const words = name
    .replace(/^@/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return "?";
  const letters = words.length === 1 ? words[0].slice(0, 1) : words[0].slice(0, 1) + words[1].slice(0, 1);
  return letters.toUpperCase();
}

/** A stable hue for a name, so one person always gets the same colour without any network call. */
export function hueOf(name: string): number {
  let hash = 0;
  for (const char of name.toLowerCase()) {
    hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  }
  return hash % 360;
}

/** Lightness 0.5 in oklch keeps white initials above 4.5:1 contrast for every hue. */
export function avatarColour(name: string): string {
  return `oklch(0.5 0.13 ${hueOf(name)})`;
}
