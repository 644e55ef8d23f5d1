/**
 * Which module a profiled frame belongs to, for summing V8 profiles (CPU and heap) by module: a package under
 * node_modules by its name (`@slack/bolt`, `zod`), the bot's own code by area (`src/core`, `adapters/slack`),
 * mapped back from the compiled bundle in `dist/` through its source maps, Node's internals in two groups
 * (the module loader, the rest), and V8's own entries (`(program)`, `(garbage collector)`) as they are.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The part of a V8 call frame (CPU or heap profile) that locates it; line and column are 0-based. */
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export const NODE_LOADER = 'node: module loader';
/** Node's source-map support (`--enable-source-maps`): reading and keeping every loaded module's map. */
export const NODE_SOURCE_MAPS = 'node: source maps';
export const NODE_OTHER = 'node: other internals';
/**
 * Code of a bundle chunk that maps to no source: esbuild's own helpers (`__commonJS`, `__toESM`: the wrappers
 * that load the bundled CommonJS libraries). Not the bot's code.
 */
export const BUNDLER_RUNTIME = 'esbuild: runtime helpers';

/** Names frames' modules for one checkout (`root`), reading each bundle chunk's source map once. */
export class ModuleNamer {
  private readonly maps = new Map<string, SourceMap | undefined>();

  constructor(private readonly root: string) {}

  /**
   * The module of `frame`; `line` (0-based, default the function's first) picks the code inside a bundle chunk,
   * whose one top-level function holds the top-level code of every module bundled into it.
   */
  of(frame: CallFrame, line?: number): string {
    const { url, functionName } = frame;
    if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
    if (url.startsWith('node:internal/modules/')) return NODE_LOADER;
    if (url.startsWith('node:internal/source_map/')) return NODE_SOURCE_MAPS;
    if (url.startsWith('node:')) return NODE_OTHER;
    if (!url.startsWith('file:') && !isAbsolute(url)) return url;
    const path = url.startsWith('file:') ? fileURLToPath(url) : url;
    const pkg = packageOf(path);
    if (pkg) return pkg;
    const rel = relative(this.root, path);
    if (rel.startsWith('dist/')) {
      const topLevel = functionName === '' && frame.lineNumber === 0 && frame.columnNumber === 0;
      if (topLevel && line === undefined) return `${rel} (top level)`;
      const source = this.original(
        path,
        line ?? frame.lineNumber,
        line === undefined ? frame.columnNumber : 1e9,
      );
      if (source) return this.of({ ...frame, url: source });
      return this.maps.get(path) ? BUNDLER_RUNTIME : rel;
    }
    if (rel.startsWith('..')) return path;
    return areaOf(rel);
  }

  /**
   * The module to charge `frames` (a stack, innermost first) to: its innermost frame of the program's code, else
   * its innermost Node subsystem named above (the work a `require` or the loader did for it), else its own.
   */
  owner(frames: CallFrame[]): string {
    const program = frames.find((f) => !isInternal(f));
    if (program) return this.of(program);
    const named = frames.map((f) => this.of(f)).find((n) => n === NODE_LOADER || n === NODE_SOURCE_MAPS);
    return named ?? (frames[0] ? this.of(frames[0]) : '(root)');
  }

  /** Whether `frame` is the bot's own code (not a library, not Node, not V8). */
  isOwn(frame: CallFrame): boolean {
    const name = this.of(frame);
    return name.startsWith('src/') || name.startsWith('adapters/') || name.startsWith('dist/');
  }

  /** The original source (an absolute path) of a position in a bundle chunk, from its `.map` beside it. */
  private original(path: string, line: number, column: number): string | undefined {
    if (!this.maps.has(path)) {
      const file = `${path}.map`;
      this.maps.set(
        path,
        existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : undefined,
      );
    }
    const entry = this.maps.get(path)?.findEntry(line, column);
    const source = entry && 'originalSource' in entry ? entry.originalSource : undefined;
    if (!source) return undefined;
    return source.startsWith('file:') ? fileURLToPath(source) : resolve(dirname(path), source);
  }
}

/** Node's own code or native code (V8's builtins and entries, C++). */
export const isInternal = (frame: CallFrame): boolean => frame.url === '' || frame.url.startsWith('node:');

/** `@scope/name` or `name` of the innermost package holding `path`, if it is under node_modules. */
function packageOf(path: string): string | undefined {
  const at = path.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const [first, second] = path.slice(at + '/node_modules/'.length).split('/');
  return first?.startsWith('@') ? `${first}/${second}` : first;
}

/** `src/<area>` or `adapters/<platform>` of a file of the checkout; a file directly in `src` by its name. */
function areaOf(rel: string): string {
  const parts = rel.split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : rel;
}
