import {ProjectError} from './errors.js'

/** What the walk reads of a markdown tree’s node. */
export interface TreeNode {
  children?: TreeNode[]
  position?: {start: {line: number}}
}

/**
 * How deep a markdown tree may nest before the gate refuses it. The contract
 * reader walks trees recursively (its own code and mdast-util-to-string);
 * thousands of nested `*`, list markers or `>` would overflow the stack.
 * People nest a few levels, so far below this.
 */
export const maxMarkdownDepth = 1000

/**
 * The first node nested deeper than `limit` (found with a loop, as a
 * recursive walk is what overflows), or `null` when none is.
 */
export function nodeBeyondDepth(tree: TreeNode, limit = maxMarkdownDepth): TreeNode | null {
  const pending: Array<[TreeNode, number]> = [[tree, 0]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next
    if (depth > limit) return node
    const children = node.children
    if (children) for (let index = children.length - 1; index >= 0; index--) pending.push([children[index], depth + 1])
  }
  return null
}

/** Refuse a markdown tree nested deeper than the readers' walks can go: a `ProjectError` naming the file and line. */
export function checkMarkdownDepth(tree: TreeNode, file: string): void {
  const deep = nodeBeyondDepth(tree)
  if (!deep) return
  const line = deep.position?.start.line
  throw new ProjectError(
    line === undefined ? file : `${file}:${line}`,
    `Unexpected markdown nested over ${maxMarkdownDepth} levels deep (emphasis, lists or quotes), expected at most ${maxMarkdownDepth}`
  )
}
