import * as path from "node:path";

/** How files, commands and counts appear in the messages of deployed-clusters/ and protected-resources/. */

/** A file as the user typed it would be: relative to the working folder. */
export function shown(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

/** A word for a POSIX shell, quoted only when it needs to be. */
export function sh(word: string): string {
  return /^[A-Za-z0-9_./%+@:=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
