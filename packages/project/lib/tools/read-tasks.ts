import type {List, ListItem, Nodes, Root} from 'mdast'
import {collapse, inlineText} from '@verification-tiers/contracts'
import {inFencedExample, parseMarkdownText} from '@verification-tiers/spec-tools'
import type {OpenTask, OptionalTasks} from './types.js'

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
  /** Kiro's optional task, a `*` right after the box (`- [ ]* 2.2 Write unit tests`): it may stay open. */
  optional: boolean
}

// `[ ]`, `[x]`, `[-]`, `[~]`: one mark between brackets (`x` or a sign, never another letter or a digit: `[a]`, `[1]` are text), then space or the end.
// Kiro marks an optional task with a `*` right after the box: `- [ ]* 2.2 Write unit tests`.
const checkbox = /^\[([xX]|[^\p{L}\p{N}\]])\](\*)?(?:\s+|$)/u
// The same box on a line of its own that markdown read as no list item: `-[ ] task`, or a line that continues the item above.
const boxLine = /^[\s>]*(?:(?:[-*+]|\d{1,9}[.)])\s*)?(\[(?:[xX]|[^\p{L}\p{N}\]])\]\*?(?:\s.*)?)$/u

/**
 * Every checkbox item of a markdown file (`- [ ] …`, `* [x] …`, `1. [-] …`),
 * in document order, nested ones included: in real files the checkboxes are
 * tasks, sub-tasks, or acceptance checks inside `## Task N` sections, and
 * each is a task. Items without a checkbox are not tasks. A line a person
 * reads as a task that markdown made no list item (`-[ ] task`, a box on
 * the line after another task) is a task too, so none is hidden; boxes in
 * code (a fenced example, indented code) are none. `tree` is the text's,
 * when the caller parsed it already.
 */
export function readTasks(file: string, text: string, tree: Root = parseMarkdownText(text)): TaskItem[] {
  const tasks: TaskItem[] = []
  const walk = (nodes: readonly Nodes[]) => {
    for (const node of nodes) {
      if (node.type === 'list') readList(file, node, tasks, walk)
      else if ('children' in node && node.type !== 'paragraph' && node.type !== 'heading') walk(node.children as Nodes[])
    }
  }
  walk(tree.children)
  const read = new Set(tasks.map((task) => task.line))
  const inExample = inFencedExample(tree.children, {everyCode: true})
  text.split(/\r\n?|\n/).forEach((line, index) => {
    const number = index + 1
    const box = boxLine.exec(line)
    if (!box || read.has(number) || inExample(number)) return
    const task = boxed(file, collapse(box[1]), number)
    if (task) tasks.push(task)
  })
  return tasks.sort((a, b) => a.line - b.line)
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
  // Read without GFM, the box is the paragraph's first text.
  const first = item.children[0]
  if (first?.type !== 'paragraph' || !first.position) return null
  // A wrapped task continues on the next lines, up to a line that opens with a box of its own (a task markdown made no item).
  const lines = inlineText(first.children as Nodes[]).split('\n')
  const own = lines.findIndex((line, index) => index > 0 && boxLine.test(line))
  const written = collapse((own === -1 ? lines : lines.slice(0, own)).join(' '))
  return boxed(file, written, first.position.start.line)
}

/** A task of text that opens with its checkbox, else `null`. */
function boxed(file: string, written: string, line: number): TaskItem | null {
  const box = checkbox.exec(written)
  if (!box) return null
  const mark = box[1]
  return {text: written.slice(box[0].length), file, line, mark, done: mark === 'x' || mark === 'X', optional: box[2] !== undefined}
}

/** How many tasks there are, how many are done, the open ones that hold the slice, and the open optional ones that do not. */
export interface TaskList {
  total: number
  checked: number
  open: OpenTask[]
  optional: OpenTask[]
}

/**
 * The counts and open tasks of a task list: an optional task left open
 * holds the slice only where the settings say `optional` tasks `hold`.
 */
export function taskList(tasks: readonly TaskItem[], optionalTasks: OptionalTasks = 'show'): TaskList {
  const list: TaskList = {total: tasks.length, checked: 0, open: [], optional: []}
  for (const {text, file, line, done, optional} of tasks) {
    if (done) list.checked++
    else if (optional && optionalTasks === 'show') list.optional.push({text, file, line})
    else list.open.push({text, file, line})
  }
  return list
}
