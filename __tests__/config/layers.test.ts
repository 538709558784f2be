import * as fs from "node:fs";
import * as path from "node:path";
import { REPO } from "../helpers";
import { importSpecifiers } from "../source-imports";

/**
 * Data flows one way (CONTRIBUTING.md, "The layers"): config/ is the bottom layer, which stacks
 * and constructs may import (pure tables and helpers), and which imports nothing above it.
 * Type-only imports count too: they tie the layers as much as value imports do.
 */

const ABOVE_CONFIG = ["constructs", "stacks"];

/** Every `.ts` file under `dir`, recursively, relative to the repository. */
function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(REPO, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
}

/** The relative module specifiers of `text` (every form: ../source-imports.ts). */
function relativeImports(file: string, text: string): string[] {
  return importSpecifiers(file, text).filter((specifier) => specifier.startsWith("."));
}

/** `file: specifier` for each import of `file` (relative to the repository) that resolves into a layer above config/. */
function upwardImports(file: string, text: string): string[] {
  return relativeImports(file, text)
    .filter((specifier) => {
      const target = path.relative(REPO, path.resolve(REPO, path.dirname(file), specifier));
      return ABOVE_CONFIG.some((layer) => target === layer || target.startsWith(`${layer}${path.sep}`));
    })
    .map((specifier) => `${file}: ${specifier}`);
}

describe("layers", () => {
  it("finds the imports it must refuse, in every form, resolved from the importing file", () => {
    const text = [
      'import { a } from "../constructs/oidc/documents";',
      'import type { B } from "../../stacks/app";',
      'export { c } from "../constructs";',
      'const d = require("../stacks/x");',
      'type E = import("../constructs/y").E;',
      'import h = require("../stacks/h");',
      'const i = import("../constructs/i");',
      'import { f } from "./keys";',
      'import { g } from "../config/names";',
    ].join("\n");
    const top = path.join("config", "x.ts");
    expect(upwardImports(top, text)).toEqual(
      ["../constructs/oidc/documents", "../constructs", "../stacks/x", "../constructs/y", "../stacks/h", "../constructs/i"].map((s) => `${top}: ${s}`),
    );
    const nested = path.join("config", "names", "x.ts");
    expect(upwardImports(nested, text)).toEqual([`${nested}: ../../stacks/app`]);
  });

  it("no file under config/ imports from constructs/ or stacks/", () => {
    const files = sourceFiles("config");
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => upwardImports(file, fs.readFileSync(path.join(REPO, file), "utf8")))).toEqual([]);
  });
});
