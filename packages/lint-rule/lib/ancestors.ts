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
export function ancestorsAt(tree: Root, place: Position): Node[] | undefined {
  const from = place.start.offset
  const to = place.end.offset
  if (from === undefined || to === undefined) return undefined
  return deepestHolding(tree, [], from, to)
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
function deepestHolding(node: Node, parents: Node[], from: number, to: number): Node[] | undefined {
  // In tree order the last holder is in the last child's subtree that has one, else the node itself.
  // Frames: a node, its path, and how many of its children are still to try (from the last).
  const stack: Array<{node: Node; path: Node[]; next: number}> = []
  const enter = (entered: Node, path: Node[]) => {
    const children = 'children' in entered && Array.isArray(entered.children) ? (entered.children as Node[]) : []
    stack.push({node: entered, path, next: children.length - 1})
  }
  // A node with offsets that does not hold the place holds no descendant that does.
  if (holds(node, from, to) === false) return undefined
  enter(node, [...parents, node])
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!
    const children = 'children' in frame.node && Array.isArray(frame.node.children) ? (frame.node.children as Node[]) : []
    let descended = false
    while (frame.next >= 0) {
      const child = children[frame.next--]!
      if (holds(child, from, to) === false) continue
      enter(child, [...frame.path, child])
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
