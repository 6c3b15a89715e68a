import type {List, ListItem, Nodes} from 'mdast'
import type {Position} from 'unist'
import {splitCheck} from './criterion.js'
import {collapse, inlineText} from './inline.js'
import type {ContractItem} from './types.js'

/** Criteria or steps of a markdown list; empty items are left out. */
export function listItems(list: List): ContractItem[] {
  const items: ContractItem[] = []
  for (const item of list.children) {
    const read = listItem(item)
    if (read) items.push(read)
  }
  return items
}

export function listItem(item: ListItem): ContractItem | null {
  // Nested lists are sub-points of an item, not items of their own.
  const paragraphs = item.children.filter((child) => child.type === 'paragraph')
  const raw = collapse(paragraphs.map((paragraph) => inlineText(paragraph.children as Nodes[])).join(' '))
  if (raw === '' || !item.position) return null
  const first = item.children[0]
  const last = paragraphs[paragraphs.length - 1]
  const position: Position =
    first?.position && last?.position ? {start: first.position.start, end: last.position.end} : item.position
  return {...splitCheck(raw), position}
}
