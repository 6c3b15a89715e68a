import type {Nodes} from 'mdast'
import {toString} from 'mdast-util-to-string'

/**
 * Text of inline content as the author wrote it, for showing back to people:
 * inline code keeps its backticks, everything else its text.
 */
export function inlineText(nodes: readonly Nodes[]): string {
  let result = ''
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!
    if (node.type === 'inlineCode') result += '`' + node.value + '`'
    else if (node.type === 'break') result += ' '
    else if ('value' in node) result += node.value
    else if ('children' in node) result += inlineText(node.children as Nodes[])
  }
  return result
}

/** Collapse runs of white space (line breaks of wrapped items) to one space. */
export function collapse(text: string): string {
  // Most text has no white space but single spaces: replacing would give it back as it is.
  return (collapsible.test(text) ? text.replace(/\s+/g, ' ') : text).trim()
}

// White space other than a space, or two spaces in a row: what `collapse` changes besides the ends.
const collapsible = /[^\S ]| {2}/

/**
 * `toString` of a node: a heading or strong of one text (most) is that
 * text, found without collecting its children's texts.
 */
export function textOf(node: Nodes): string {
  if ('children' in node && node.children.length === 1) {
    const only = node.children[0]!
    if (only.type === 'text') return only.value
  }
  return toString(node)
}
