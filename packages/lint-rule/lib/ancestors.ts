import type {Root} from 'mdast'
import type {Node, Position} from 'unist'

/**
 * The ancestors of what `place` points at, as remark-lint messages carry
 * them (`[root, …, node]`): the path to the deepest node that holds the
 * whole place (of several, the last in tree order). `undefined` when the
 * place has no offsets or no node holds it.
 *
 * Found by walking down from the root, only into nodes that hold the place
 * (a node's children lie within it), so a message costs the depth of the
 * tree, not a walk over every node: most files get no message, and those
 * that do get a few.
 */
export function ancestorsAt(tree: Root, place: Position, placed: WeakMap<Node[], boolean> = new WeakMap()): Node[] | undefined {
  const from = place.start.offset
  const to = place.end.offset
  if (from === undefined || to === undefined) return undefined
  return deepestHolding(tree, [], from, to, placed)
}

/** Whether `node` has offsets and they hold `from`..`to`; `undefined` when it has no offsets. */
function holds(node: Node, from: number, to: number): boolean | undefined {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  if (start === undefined || end === undefined) return undefined
  return start <= from && end >= to
}

/**
 * The path to the last node, in tree order, of `node`'s subtree that holds
 * `from`..`to`; `parents` are `node`'s ancestors. A loop over an explicit
 * stack, not recursion: quotes and lists can nest thousands deep.
 */
function deepestHolding(node: Node, parents: Node[], from: number, to: number, placed: WeakMap<Node[], boolean>): Node[] | undefined {
  // In tree order the last holder is in the last child's subtree that has one, else the node itself.
  // Frames: a node, its path, and how many of its children are still to try (from the last).
  const stack: Array<{node: Node; path: Node[]; next: number}> = []
  // A node with offsets that does not hold the place holds no descendant that does.
  if (holds(node, from, to) === false) return undefined
  stack.push(frameOf(node, [...parents, node], from, placed))
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]
    const children = childrenOf(frame.node)
    let descended = false
    while (frame.next >= 0) {
      const child = children[frame.next--]
      const end = child.position?.end.offset
      // Siblings and their subtrees are in document order: before one that ends before the place, none reaches it.
      if (end !== undefined && end < from) break
      if (holds(child, from, to) === false) continue
      stack.push(frameOf(child, [...frame.path, child], from, placed))
      descended = true
      break
    }
    if (descended) continue
    // No child's subtree holds it: the node itself, when it does.
    stack.pop()
    if (holds(frame.node, from, to) === true) return frame.path
  }
  return undefined
}

/** A node entered on the way down: its path, and the last of its children that may hold the place. */
function frameOf(node: Node, path: Node[], from: number, placed: WeakMap<Node[], boolean>): {node: Node; path: Node[]; next: number} {
  return {node, path, next: lastStartingBy(childrenOf(node), from, placed)}
}

function childrenOf(node: Node): Node[] {
  return 'children' in node && Array.isArray(node.children) ? (node.children as Node[]) : []
}

/**
 * The index of the last child that starts at or before `from` (children are
 * in document order): those after it cannot hold the place. The last index
 * when a child has no offsets (a plugin made it; what it holds may start
 * anywhere between its siblings), so that every child is tried.
 */
function lastStartingBy(children: Node[], from: number, placed: WeakMap<Node[], boolean>): number {
  if (!allPlaced(children, placed)) return children.length - 1
  let low = 0
  let high = children.length - 1
  let found = -1
  while (low <= high) {
    const middle = (low + high) >> 1
    if (children[middle].position!.start.offset! <= from) {
      found = middle
      low = middle + 1
    } else {
      high = middle - 1
    }
  }
  return found
}

/** Whether every child has offsets: looked at once per list of children (`placed` keeps what was found), however many messages point into it. */
function allPlaced(children: Node[], placed: WeakMap<Node[], boolean>): boolean {
  let known = placed.get(children)
  if (known === undefined) {
    known = true
    for (let index = 0; index < children.length && known; index++) {
      const position = children[index].position
      known = position?.start.offset !== undefined && position.end.offset !== undefined
    }
    placed.set(children, known)
  }
  return known
}
