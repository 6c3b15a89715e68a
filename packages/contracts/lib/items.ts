import type {ListItem} from 'mdast'
import type {Position} from 'unist'
import {splitCheck} from './criterion.js'
import {collapse, inlineText} from './inline.js'
import type {ContractField, ContractItem} from './types.js'

/** A list item as a criterion or step: the text of its paragraphs, check split off; `null` when it is empty. */
export function listItem(item: ListItem): ContractItem | null {
  // Nested lists are sub-points of an item, not items of their own: the text of its paragraphs, joined by a space.
  let joined = ''
  let last: ListItem['children'][number] | undefined
  for (const child of item.children) {
    if (child.type !== 'paragraph') continue
    joined = last === undefined ? inlineText(child.children) : joined + ' ' + inlineText(child.children)
    last = child
  }
  const raw = collapse(joined)
  if (raw === '' || !item.position) return null
  const first = item.children[0]
  const position: Position = first?.position && last?.position ? {start: first.position.start, end: last.position.end} : item.position
  const split = splitCheck(raw)
  return {text: split.text, check: split.check, position}
}

// Words that say a list is empty on purpose.
const nothing = /^(?:none|n\/?a|nothing|tbd|-|—)\.?$/i

const listMarker = /^(?:[-*+]|\d{1,9}[.)])[ \t]+(?=\S)/

/** A field’s one-line value as an item (check split off, placed at the value), or `null` when it has none or says there is nothing. */
export function inlineItem(field: ContractField): ContractItem | null {
  if (!field.valuePosition || nothing.test(field.value)) return null
  // Where markdown made no list of a `- item` line (a list cannot always interrupt a paragraph), it is still an item.
  const marker = listMarker.exec(field.value)?.[0].length ?? 0
  const {start, end} = field.valuePosition
  const position = marker === 0 ? field.valuePosition : {start: {line: start.line, column: start.column + marker}, end}
  return {...splitCheck(field.value.slice(marker)), position}
}
