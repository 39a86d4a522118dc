// Import cycles: Tarjan's strongly connected components, iterative so that long import chains
// of real repositories cannot overflow the call stack.

/** Components with more than one node, or a node with an edge to itself; members ordered by `orderCycle`. */
export function findCycles(nodes: Iterable<string>, successors: (node: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;

  for (const root of nodes) {
    if (index.has(root)) continue;
    // Each frame is a node and the position of the next successor to visit.
    const frames: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const next = successors(frame.node);
      if (frame.next < next.length) {
        const to = next[frame.next++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          frames.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || successors(frame.node).includes(frame.node)) {
        components.push(orderCycle(component, successors));
      }
    }
  }
  return components.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * Orders a component for reading: a shortest cycle through its smallest path, in import order
 * (`a → b → c`, and `c` imports `a`), then the other members sorted.
 */
export function orderCycle(component: string[], successors: (node: string) => readonly string[]): string[] {
  const start = [...component].sort()[0];
  const cycle = shortestCycleThrough(start, new Set(component), successors);
  const inCycle = new Set(cycle);
  return [...cycle, ...component.filter((m) => !inCycle.has(m)).sort()];
}

/**
 * A shortest import cycle from `start` back to it through `members` (breadth-first, successors
 * in sorted order, so the result is deterministic); `[]` when there is none.
 */
export function shortestCycleThrough(start: string, members: ReadonlySet<string>, successors: (node: string) => readonly string[]): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    for (const to of [...successors(node)].sort()) {
      if (to === start) {
        const cycle: string[] = [];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at)) cycle.push(at);
        cycle.push(start);
        return cycle.reverse();
      }
      if (!members.has(to) || previous.has(to)) continue;
      previous.set(to, node);
      queue.push(to);
    }
  }
  return [];
}
