import type {List, ListItem, Nodes, Root} from 'mdast'
import {collapse, inlineText} from '@verification-tiers/contracts'
import type {OpenTask} from './types.js'

/** One checkbox item of a task list, at any depth, with or without an id (`1.2`, `T003`, none). */
export interface TaskItem {
  /** The task as written, without its checkbox. */
  text: string
  /** Path as messages show it. */
  file: string
  line: number
  /** What is between the brackets: `x` (done), ` ` (open), `-` (in progress), or another mark. */
  mark: string
  /** Only `[x]` (any case) is done; any other mark (` `, `-`, `~`, `/`) leaves the task open. */
  done: boolean
}

// `[ ]`, `[x]`, `[-]`: one character between brackets, then space or the end; the parser reads it as text, GFM or not.
const checkbox = /^\[(.)\](?:\s+|$)/

/**
 * Every checkbox item of a parsed markdown file (`- [ ] …`, `* [x] …`,
 * `1. [-] …`), in document order, nested ones included: in real files the
 * checkboxes are tasks, sub-tasks, or acceptance checks inside `## Task N`
 * sections, and each is a task. Items without a checkbox are not tasks.
 */
export function readTasks(file: string, tree: Root): TaskItem[] {
  const tasks: TaskItem[] = []
  const walk = (nodes: readonly Nodes[]) => {
    for (const node of nodes) {
      if (node.type === 'list') readList(file, node, tasks, walk)
      else if ('children' in node && node.type !== 'paragraph' && node.type !== 'heading') walk(node.children as Nodes[])
    }
  }
  walk(tree.children)
  return tasks
}

function readList(file: string, list: List, tasks: TaskItem[], walk: (nodes: readonly Nodes[]) => void): void {
  for (const item of list.children) {
    const task = taskOf(file, item)
    if (task) tasks.push(task)
    walk(item.children as Nodes[])
  }
}

/** The task of a list item whose first paragraph opens with a checkbox, else `null`. */
function taskOf(file: string, item: ListItem): TaskItem | null {
  // GFM parsers set `checked` and drop the box from the text; without GFM the box is the paragraph's first text.
  const first = item.children[0]
  if (first?.type !== 'paragraph' || !first.position) return null
  const written = collapse(inlineText(first.children as Nodes[]))
  if (item.checked === true || item.checked === false) {
    const mark = item.checked ? 'x' : ' '
    return {text: written, file, line: first.position.start.line, mark, done: item.checked}
  }
  const box = checkbox.exec(written)
  if (!box) return null
  const mark = box[1]!
  return {text: written.slice(box[0].length), file, line: first.position.start.line, mark, done: mark === 'x' || mark === 'X'}
}

/** The tasks not done, as a slice lists them. */
export function openTasks(tasks: readonly TaskItem[]): OpenTask[] {
  return tasks.filter((task) => !task.done).map(({text, file, line}) => ({text, file, line}))
}
