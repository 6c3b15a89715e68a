import {appendAll} from './append.js'
import type {RootContent} from 'mdast'
import {inlineItem} from './items.js'
import {attachList, holdsLabel, isComment, isTableText, unreadText} from './paragraph.js'
import type {ParagraphReading} from './paragraph.js'
import type {ContractField} from './types.js'

/** What the blocks after a field’s list gave. */
export interface Following {
  /** Fields that a label on a lazy line of a list item started (markdown kept the line in the item). */
  fields: ContractField[]
  /** The field that still takes items when a heading (or the end) stopped the reading: a subsection’s blocks may be its. */
  open: ContractField | null
}

/**
 * The blocks after the label of a field that holds items (and after its
 * list), up to the next paragraph with a label, or the next heading: none of
 * them goes unseen. Every list is the field’s, whatever its bullet or
 * numbers, and after a paragraph or a code block too: criteria written as
 * two lists are all criteria. A table or a block quote is named as unread
 * text: a row has columns whose meaning the reader cannot tell, and a quote
 * is set apart from the list on purpose, so a person rewrites them as items.
 * A paragraph or a code block is prose or an example, and passed over.
 * `siblings[from]` is the first block not read yet.
 */
export function readFollowing(field: ContractField, siblings: readonly RootContent[], from: number, reading: ParagraphReading): Following {
  const fields: ContractField[] = []
  let target = field
  // A label ending a list takes the next list, whatever its field (as under the first list).
  let takesList = false
  for (let index = from; index < siblings.length; index++) {
    const node = siblings[index]
    if (node.type === 'heading') break
    if (isComment(node) || !node.position) continue
    if (node.type === 'paragraph' && holdsLabel(node, reading)) return {fields, open: null}
    if (!reading.holdsItems(target) && !(takesList && node.type === 'list')) return {fields, open: null}
    takesList = false
    if (node.type !== 'list') {
      if (node.type === 'table' || node.type === 'blockquote' || isTableText(node))
        target.unread.push(unreadText(node, node.type === 'blockquote' ? 'quote' : 'table'))
      continue
    }
    keepInlineItem(target)
    const more = attachList(target, node, reading.locator, reading.dialects)
    appendAll(fields, more.fields)
    target = more.fields[more.fields.length - 1] ?? target
    takesList = more.lastLineIsField
  }
  return {fields, open: reading.holdsItems(target) ? target : null}
}

/**
 * A value on the label’s line, or wrapped onto the paragraph’s next lines,
 * is an item when a list comes only after it (`**Steps:** Open /campaigns`,
 * a paragraph, then a list): it is kept before the list’s items. A value that
 * ends with a colon (`All of these hold:`) introduces the list: no item.
 */
function keepInlineItem(field: ContractField): void {
  if (field.hasList || field.items.length > 0 || /[:：]$/u.test(field.value)) return
  const item = inlineItem(field)
  if (item) field.items.push(item)
}
