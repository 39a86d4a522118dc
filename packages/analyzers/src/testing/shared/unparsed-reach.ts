// What tests reach through files the engine does not parse. A generated file (openai-node's
// Stainless client, `src/client.ts`) or a skipped one is not in the code graph, so the modules it
// imports look unreached although every test loads them through it. Its imports are read from its
// text (relative specifiers, resolved like a bundler), and the graph is followed again from there.
import type { CodeGraph, RepoSnapshot } from '@codehealth/engine/kit';
import { isRuntimeEdge } from './structural-coverage.js';

const RELATIVE_SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(['"])(\.{1,2}\/[^'"\n]{1,300})\1/g;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };
/** Unparsed files read per run, at most (each at most 1 MB). */
const MAX_FILES = 2000;

/** `reached` plus what the unparsed files among its import targets load, transitively. */
export async function reachThroughUnparsed(graph: CodeGraph, reached: ReadonlySet<string>, snapshot: RepoSnapshot): Promise<Set<string>> {
  const out = new Set(reached);
  const files = new Set(snapshot.files.map((f) => f.path));
  const sizes = new Map(snapshot.files.map((f) => [f.path, f.sizeBytes ?? 0]));
  const read = new Set<string>();
  const modules: string[] = [...reached];
  const unparsed: string[] = [];
  const visitModule = (path: string) => {
    for (const edge of graph.modules.get(path)?.imports ?? []) {
      if (!isRuntimeEdge(edge)) continue;
      const to = edge.to!;
      if (graph.modules.has(to)) {
        if (!out.has(to)) {
          out.add(to);
          modules.push(to);
        }
      } else if (files.has(to) && !read.has(to)) {
        read.add(to);
        unparsed.push(to);
      }
    }
  };
  for (let i = 0; i < modules.length || unparsed.length > 0;) {
    if (i < modules.length) {
      visitModule(modules[i++]);
      continue;
    }
    const path = unparsed.pop()!;
    if (read.size > MAX_FILES || (sizes.get(path) ?? 0) > 1_048_576) continue;
    const text = await snapshot.readFile(path).catch(() => '');
    for (const match of text.matchAll(RELATIVE_SPECIFIER)) {
      const target = resolveRelative(path, match[2], files);
      if (target === undefined) continue;
      if (graph.modules.has(target)) {
        if (!out.has(target)) {
          out.add(target);
          modules.push(target);
        }
      } else if (!read.has(target)) {
        read.add(target);
        unparsed.push(target);
      }
    }
  }
  return out;
}

function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split(/[?#]/)[0].split('/')) {
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else if (part !== '.' && part !== '') parts.push(part);
  }
  const base = parts.join('/');
  const ext = /\.[mc]?[jt]sx?$/.exec(base)?.[0];
  const candidates = [base];
  if (ext) for (const ts of JS_TO_TS[ext] ?? []) candidates.push(base.slice(0, -ext.length) + ts);
  for (const e of EXTENSIONS) candidates.push(base + e);
  for (const e of EXTENSIONS) candidates.push(`${base}/index${e}`);
  return candidates.find((c) => files.has(c));
}
