import type {ListItem, Root} from 'mdast'
import {visit} from 'unist-util-visit'
import type {OpenTask} from './types.js'
import {sourceOf} from './markdown.js'

/** The checkbox items of a `tasks.md`: how many there are, how many are ticked, and the open ones. */
export interface TaskList {
  total: number
  checked: number
  open: OpenTask[]
}

// `[ ]`, `[-]` (in progress), `[x]` or `[X]` opening a list item; the parser reads it as text (no task-list extension), so it is matched on the item's first line.
const checkbox = /^\[([ xX-])\](?:[ \t]+|$)/

/**
 * The tasks of a markdown tree: every list item, at any depth and in any
 * list, whose text opens with a checkbox (`- [ ] 1.2 Do x`, `- [x] Do y`,
 * `1. [ ] Do z`). Ids are part of the text: a task without one is a task.
 * Checkboxes in code blocks are examples, not tasks.
 */
export function readTasks(file: string, text: string, tree: Root): TaskList {
  const tasks: TaskList = {total: 0, checked: 0, open: []}
  visit(tree, 'listItem', (item: ListItem) => {
    const first = item.children[0]
    if (first?.type !== 'paragraph') return
    const written = sourceOf(text, first)
    const box = checkbox.exec(written)
    if (!box) return
    tasks.total++
    // Only a tick is done: a task in progress is open.
    if (box[1] !== ' ' && box[1] !== '-') {
      tasks.checked++
      return
    }
    // A task on several lines reads as one line.
    const task = written.slice(box[0].length).replace(/\s*\n\s*/g, ' ').trim()
    tasks.open.push({text: task, file, line: item.position?.start.line ?? 1})
  })
  return tasks
}
