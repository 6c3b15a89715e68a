import type {Nodes} from 'mdast'

/**
 * Text of inline content as the author wrote it, for showing back to people:
 * inline code keeps its backticks, everything else its text.
 */
export function inlineText(nodes: readonly Nodes[]): string {
  let result = ''
  for (const node of nodes) {
    if (node.type === 'inlineCode') result += '`' + node.value + '`'
    else if (node.type === 'break') result += ' '
    else if ('value' in node) result += node.value
    else if ('children' in node) result += inlineText(node.children)
  }
  return result
}

/** Collapse runs of white space (line breaks of wrapped items) to one space. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
