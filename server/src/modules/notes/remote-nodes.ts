import { performance } from 'node:perf_hooks';

interface Heard {
  /** performance.now() of its last message: not the server's clock, which tests move forward. */
  at: number;
  /** Groups this node holds awareness states of that node's clients in. */
  groups: Set<string>;
}

/**
 * The other nodes this one holds awareness states from, and when each was last heard. A node that stops
 * cleanly relays the removal of its clients' states as their sockets close; one that crashes (or loses Redis)
 * sends nothing more, and its states are taken out once it has been silent too long, long before
 * y-protocols' own 30 s timeout would.
 */
export class RemoteNodes {
  private readonly nodes = new Map<string, Heard>();

  /** Any message of the node: it is alive. Nodes that hold nothing here are not tracked. */
  heard(nodeId: string): void {
    const node = this.nodes.get(nodeId);
    if (node) node.at = performance.now();
  }

  holds(nodeId: string, groupId: string): void {
    let node = this.nodes.get(nodeId);
    if (!node) this.nodes.set(nodeId, (node = { at: performance.now(), groups: new Set() }));
    node.groups.add(groupId);
  }

  /** The group's notes closed here: nothing of it is held any more. */
  forgetGroup(groupId: string): void {
    for (const node of this.nodes.values()) node.groups.delete(groupId);
  }

  /** Nodes silent for `silentMs` or more, with the groups they held states in; forgotten here. */
  takeSilent(silentMs: number): [string, Set<string>][] {
    const cutoff = performance.now() - silentMs;
    const silent: [string, Set<string>][] = [];
    for (const [nodeId, node] of this.nodes) {
      if (node.at > cutoff) continue;
      this.nodes.delete(nodeId);
      silent.push([nodeId, node.groups]);
    }
    return silent;
  }
}
