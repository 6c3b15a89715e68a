import type {ListItem} from 'mdast'
import {toString} from 'mdast-util-to-string'
import {visit} from 'unist-util-visit'
import {FileReadError, inputLimits, readInputFile} from '@verification-tiers/runtime'
import type {ProjectProblem} from '../problems.js'
import {parseMarkdown} from './markdown.js'
import type {OpenTask} from './types.js'

/** A task's checkbox at the start of a list item, as written without the GFM extension: `[ ]`, `[x]`, `[X]`. */
const checkbox = /^\[([ xX])\][ \t]+/

/**
 * The unticked tasks of a `tasks.md` (`- [ ] …` items at any depth, with an
 * id or none), each with its line; none when there is no file. A file that
 * cannot be read is a problem, never a project without open tasks.
 */
export async function readOpenTasks(file: string): Promise<{open: OpenTask[]; problems: ProjectProblem[]}> {
  let text: string | undefined
  try {
    text = await readInputFile(file, {limit: inputLimits.markdown})
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error
    return {open: [], problems: [{file, line: null, message: `${error.message.slice(file.length + 2)}; its open tasks cannot be counted`}]}
  }
  if (text === undefined) return {open: [], problems: []}
  const {tree} = parseMarkdown(file, text)
  const open: OpenTask[] = []
  visit(tree, 'listItem', (item: ListItem) => {
    const first = item.children[0]
    if (first?.type !== 'paragraph') return
    const words = toString(first)
    const box = checkbox.exec(words)
    if (box?.[1] === ' ') open.push({text: words.slice(box[0].length).replace(/\s+/g, ' ').trim(), file, line: item.position?.start.line ?? 1})
  })
  return {open, problems: []}
}
