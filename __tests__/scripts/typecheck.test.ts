import * as fs from "node:fs";
import * as path from "node:path";
import { tempDir } from "../helpers";

const { typecheck, stampFile } = require("../../scripts/typecheck.js") as {
  typecheck(root: string, run?: (root: string) => number): number;
  stampFile(root: string): string;
};

/**
 * What the stand-in tsc below does, in this thread: the cases about what is keyed run it (a
 * process each was ~0.07 CPU-s); the first two cases run the real `node_modules/.bin/tsc` child.
 */
const inThread = (root: string): number => {
  fs.appendFileSync(path.join(root, "tsc-runs"), "x");
  return Number(fs.readFileSync(path.join(root, "tsc-exit"), "utf8"));
};

/**
 * scripts/typecheck.js: tsc runs unless nothing it reads changed since its last clean run in this
 * checkout. A stand-in tsc (node_modules/.bin/tsc) counts its runs and exits with the code in
 * `<root>/tsc-exit`.
 */
function checkout(name: string, modules?: string): { root: string; runs(): number } {
  const root = path.join(tempDir("hcp-azure-typecheck-"), name);
  fs.mkdirSync(path.join(root, "src", "deep"), { recursive: true });
  fs.writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ include: ["main.ts", "src/**/*.ts"] }));
  fs.writeFileSync(path.join(root, "main.ts"), "export const a = 1;\n");
  fs.writeFileSync(path.join(root, "src", "deep", "b.ts"), "export const b = 1;\n");
  fs.writeFileSync(path.join(root, "package-lock.json"), "{}");
  fs.writeFileSync(path.join(root, "tsc-exit"), "0");
  if (modules) fs.symlinkSync(modules, path.join(root, "node_modules"));
  else {
    fs.mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true });
    fs.mkdirSync(path.join(root, "node_modules", "typescript"));
    fs.writeFileSync(path.join(root, "node_modules", "typescript", "package.json"), '{"version":"5.9.3"}');
    fs.writeFileSync(path.join(root, "node_modules", ".package-lock.json"), "{}");
    fs.writeFileSync(
      path.join(root, "node_modules", ".bin", "tsc"),
      'const fs = require("fs"), path = require("path");\n' +
        'fs.appendFileSync(path.join(process.cwd(), "tsc-runs"), "x");\n' +
        'process.exit(Number(fs.readFileSync(path.join(process.cwd(), "tsc-exit"), "utf8")));\n',
    );
  }
  const runs = () => (fs.existsSync(path.join(root, "tsc-runs")) ? fs.readFileSync(path.join(root, "tsc-runs"), "utf8").length : 0);
  return { root, runs };
}

/** Rewrites `file` with `text` of the same size and gives it back its old times (what cp -p or tar do). */
function rewriteKeepingTimes(file: string, text: string): void {
  const { atime, mtime, size } = fs.statSync(file);
  expect(Buffer.byteLength(text)).toBe(size);
  fs.writeFileSync(file, text);
  fs.utimesSync(file, atime, mtime);
}

describe("scripts/typecheck.js", () => {
  it("runs tsc, and not again while nothing changed", () => {
    const { root, runs } = checkout("a");
    expect(typecheck(root)).toBe(0);
    expect(typecheck(root)).toBe(0);
    expect(runs()).toBe(1);
    expect(fs.existsSync(stampFile(root))).toBe(true);
  });

  it.each([
    ["an included file, same size and time", "src/deep/b.ts", "export const b = 2;\n"],
    ["main.ts", "main.ts", "export const a = 2;\n"],
    ["package-lock.json", "package-lock.json", "[]"],
    ["the installed dependencies (node_modules/.package-lock.json)", "node_modules/.package-lock.json", "[]"],
    ["TypeScript's version", "node_modules/typescript/package.json", '{"version":"5.9.4"}'],
    ["tsconfig.json", "tsconfig.json", JSON.stringify({ include: ["src/**/*.ts", "main.ts"] })],
  ])("runs tsc again after a change of %s", (_what, file, text) => {
    const { root, runs } = checkout("b");
    expect(typecheck(root, inThread)).toBe(0);
    rewriteKeepingTimes(path.join(root, file), text);
    expect(typecheck(root, inThread)).toBe(0);
    expect(runs()).toBe(2);
  });

  it("runs tsc for a new file", () => {
    const { root, runs } = checkout("c");
    typecheck(root, inThread);
    fs.writeFileSync(path.join(root, "src", "c.ts"), "export {};\n");
    typecheck(root, inThread);
    expect(runs()).toBe(2);
  });

  it("a failed check stamps nothing: it runs, and fails, until it is fixed", () => {
    const { root, runs } = checkout("d");
    fs.writeFileSync(path.join(root, "tsc-exit"), "2");
    expect(typecheck(root)).toBe(2);
    expect(typecheck(root)).toBe(2);
    fs.writeFileSync(path.join(root, "tsc-exit"), "0");
    expect(typecheck(root)).toBe(0);
    expect(typecheck(root)).toBe(0);
    expect(runs()).toBe(3);
  });

  it("keeps one stamp per checkout when checkouts share node_modules", () => {
    const first = checkout("e");
    const second = checkout("f", path.join(first.root, "node_modules"));
    expect(stampFile(first.root)).not.toBe(stampFile(second.root));
    typecheck(first.root, inThread);
    typecheck(second.root, inThread);
    expect([first.runs(), second.runs()]).toEqual([1, 1]);
  });

  it("always runs tsc when an include pattern has another shape", () => {
    const { root, runs } = checkout("g");
    fs.writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ include: ["src/*.ts"] }));
    typecheck(root, inThread);
    typecheck(root, inThread);
    expect(runs()).toBe(2);
  });
});
