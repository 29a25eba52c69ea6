// The service's graph, with the names of the statements its writes send noted in order: tests of what a write
// sends (issue 27: each statement costs the engine work of its own). The statements still run on the real database.
// A write sent as one auto-commit statement (Graph.writeAlone) is noted too: a fallback to a transaction after it
// notes its statement again.
import type { Graph, Tx } from '../../src/db/graph.js';
import { harness } from './harness.js';

/** The service's graph, with the names of the statements its writes run noted in `ran`. */
export function notingGraph(ran: string[]): Graph {
  const graph = harness().service.deps.graph;
  const noting = (tx: Tx): Tx =>
    new Proxy(tx, {
      get: (target, prop, receiver) =>
        prop === 'runAll'
          ? (statements: readonly (readonly [string, Record<string, unknown>])[]) => {
              ran.push(...statements.map(([name]) => name));
              return target.runAll(statements);
            }
          : Reflect.get(target, prop, receiver),
    });
  return new Proxy(graph, {
    get: (target, prop, receiver) =>
      prop === 'writeAlone'
        ? (name: string, params: Record<string, unknown>, meta?: Record<string, string>) => {
            ran.push(name);
            return target.writeAlone(name, params, meta);
          }
        : prop === 'write'
          ? <T>(work: (tx: Tx) => Promise<T>, meta?: Record<string, string>) =>
              target.write((tx) => work(noting(tx)), meta)
          : prop === 'writeCarrying'
            ? <T>(check: string, work: (tx: Tx) => Promise<T>, meta?: Record<string, string>) =>
                target.writeCarrying(check, (tx) => work(noting(tx)), meta)
            : Reflect.get(target, prop, receiver),
  });
}
