/**
 * Loads the shell parser of the permission rules: web-tree-sitter's runtime (tree-sitter.wasm) and the bash grammar
 * (tree-sitter-bash.wasm), https://tree-sitter.github.io/tree-sitter/using-parsers/. In the product both files sit
 * in the extension's dist/ folder (copied there by esbuild.mjs); tests load them from node_modules
 * ({@link nodeModulesWasm}). The analysis itself is src/host/permissions/rules/shellCommand.ts.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import { analyzeLine, analyzeRuleText, analyzeWords } from './shellCommand';
import type { ShellAnalysis } from './shellCommand';

/** Reads command lines and argvs as the commands they run. */
export interface ShellParser {
  /** The commands of a shell command line. Never throws. */
  analyze(line: string): ShellAnalysis;
  /** The commands of an argv run without a shell (`terminal/create` `{command, args}`). Never throws. */
  analyzeArgv(argv: readonly string[]): ShellAnalysis;
  /**
   * A command rule's text read as written: wrappers (`sudo`, `timeout`, …), shells' `-c` scripts and `eval` are not
   * unwrapped nor opaque, so `timeout *` is the one command `timeout` `*` (its `*` a dynamic word). Never throws.
   */
  analyzeRule(text: string): ShellAnalysis;
}

/** Where the two wasm files are. */
export interface WasmFiles {
  /** web-tree-sitter's runtime, tree-sitter.wasm. */
  readonly runtime: string;
  /** The bash grammar, tree-sitter-bash.wasm. */
  readonly bash: string;
}

/** The two wasm files in a folder that holds both (the extension's dist/). */
export function wasmFilesIn(dir: string): WasmFiles {
  return { runtime: path.join(dir, 'tree-sitter.wasm'), bash: path.join(dir, 'tree-sitter-bash.wasm') };
}

/** The two wasm files in a checkout's node_modules (for tests). */
export function nodeModulesWasm(repoRoot: string): WasmFiles {
  const modules = path.join(repoRoot, 'node_modules');
  return { runtime: path.join(modules, 'web-tree-sitter', 'tree-sitter.wasm'), bash: path.join(modules, 'tree-sitter-bash', 'tree-sitter-bash.wasm') };
}

/** How long one parse may take before the line is opaque ("took too long"). */
const PARSE_MS = 1000;

const loaded = new Map<string, Promise<ShellParser>>();
/** web-tree-sitter has one runtime per process: the first call's runtime file is the one used. */
let runtime: Promise<void> | undefined;

/**
 * The bash parser, from a folder holding tree-sitter.wasm and tree-sitter-bash.wasm (the extension's dist/ folder in
 * the product), or from the two files' paths. Loaded once per path: later calls get the same promise (a failed load
 * is retried by the next call).
 */
export function bashParser(where: string | WasmFiles): Promise<ShellParser> {
  const files = typeof where === 'string' ? wasmFilesIn(where) : where;
  const key = `${files.runtime}\n${files.bash}`;
  let p = loaded.get(key);
  if (!p) {
    p = load(files);
    loaded.set(key, p);
    p.catch(() => loaded.delete(key));
  }
  return p;
}

async function load(files: WasmFiles): Promise<ShellParser> {
  runtime ??= fs.readFile(files.runtime).then((wasmBinary) => Parser.init({ wasmBinary, locateFile: () => files.runtime }));
  try {
    await runtime;
  } catch (e) {
    runtime = undefined;
    throw e;
  }
  const language = await Language.load(await fs.readFile(files.bash));
  const parser = new Parser();
  parser.setLanguage(language);
  const parse = (script: string) => {
    const deadline = performance.now() + PARSE_MS;
    const tree = parser.parse(script, null, { progressCallback: () => performance.now() > deadline });
    if (!tree) parser.reset();
    return tree ?? undefined;
  };
  return {
    analyze: (line) => analyzeLine(line, parse),
    analyzeArgv: (argv) => analyzeWords(argv, parse),
    analyzeRule: (text) => analyzeRuleText(text, parse),
  };
}
