import type {Root} from 'mdast'
import type {Node, Position} from 'unist'
import {visitParents} from 'unist-util-visit-parents'

/** Every node of a tree with its offsets and its ancestors, in tree order: built once per tree, when a message first needs it. */
type Indexed = {start: number; end: number; path: Node[]}
const indexes = new WeakMap<Root, Indexed[]>()

function indexOf(tree: Root): Indexed[] {
  let index = indexes.get(tree)
  if (!index) {
    const nodes: Indexed[] = []
    visitParents(tree, (node, parents) => {
      const {start, end} = node.position ?? {}
      if (start?.offset !== undefined && end?.offset !== undefined) nodes.push({start: start.offset, end: end.offset, path: [...parents, node]})
    })
    indexes.set(tree, nodes)
    index = nodes
  }
  return index
}

/**
 * The ancestors of what `place` points at, as remark-lint messages carry
 * them (`[root, …, node]`): the path to the deepest node that holds the
 * whole place. `undefined` when the place has no offsets.
 */
export function ancestorsAt(tree: Root, place: Position): Node[] | undefined {
  const from = place.start.offset
  const to = place.end.offset
  if (from === undefined || to === undefined) return undefined
  let found: Indexed | undefined
  // In tree order a descendant comes after its ancestor: the last that holds the place is the deepest.
  for (const entry of indexOf(tree)) if (entry.start <= from && entry.end >= to) found = entry
  return found?.path
}
