import type {List, ListItem, Nodes} from 'mdast'
import type {Position} from 'unist'
import {splitCheck} from './criterion.js'
import {collapse, inlineText} from './inline.js'
import type {ContractField, ContractItem} from './types.js'

/** Criteria or steps of a markdown list; empty items are left out. */
export function listItems(list: List): ContractItem[] {
  const items: ContractItem[] = []
  for (let index = 0; index < list.children.length; index++) {
    const read = listItem(list.children[index]!)
    if (read) items.push(read)
  }
  return items
}

export function listItem(item: ListItem): ContractItem | null {
  // Nested lists are sub-points of an item, not items of their own: the text of its paragraphs, joined by a space.
  let joined = ''
  let last: ListItem['children'][number] | undefined
  for (let index = 0; index < item.children.length; index++) {
    const child = item.children[index]!
    if (child.type !== 'paragraph') continue
    joined = last === undefined ? inlineText(child.children as Nodes[]) : joined + ' ' + inlineText(child.children as Nodes[])
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
