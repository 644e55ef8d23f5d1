/**
 * A V8 sampling heap profile (`node --heap-prof`, written at exit): the sampled allocations still live then,
 * by module. Each allocation counts for the innermost frame of its stack that is the program's code, not
 * Node's internals or a native function (a `JSON.parse` inside Bolt counts for Bolt, a `require` of zod for zod);
 * with none, for the Node subsystem that made it (the module loader, source maps): ModuleNamer.owner.
 */
import { readFileSync } from 'node:fs';
import type { CallFrame, ModuleNamer } from './profile-modules.js';

interface HeapNode {
  callFrame: CallFrame;
  /** Bytes of the sampled allocations made in this frame and still live. */
  selfSize: number;
  children: HeapNode[];
}

export interface HeapByModule {
  /** Live bytes sampled in all. */
  totalBytes: number;
  /** Live bytes by module (ModuleNamer), largest first. */
  modules: [string, number][];
}

export function heapByModule(path: string, names: ModuleNamer): HeapByModule {
  const { head } = JSON.parse(readFileSync(path, 'utf8')) as { head: HeapNode };
  const modules = new Map<string, number>();
  let totalBytes = 0;
  // Depth first, each node with its stack (innermost first).
  const stack: { node: HeapNode; frames: CallFrame[] }[] = [{ node: head, frames: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const frames = [item.node.callFrame, ...item.frames];
    if (item.node.selfSize > 0) {
      const name = names.owner(frames);
      modules.set(name, (modules.get(name) ?? 0) + item.node.selfSize);
      totalBytes += item.node.selfSize;
    }
    for (const child of item.node.children) stack.push({ node: child, frames });
  }
  return { totalBytes, modules: [...modules].sort((a, b) => b[1] - a[1]) };
}
