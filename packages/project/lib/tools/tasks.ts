import type {ReadBudget} from '../budget.js'
import type {ProjectProblem} from '../problems.js'
import {readCountedFile} from './read-file.js'
import type {OpenTask, OptionalTasks} from './types.js'

/**
 * The unticked tasks of a `tasks.md` (`- [ ] …` items at any depth, with an
 * id or none), each with its line, the optional ones apart unless they
 * hold; none when there is no file. A file that cannot be read is a
 * problem in `problems`, never a slice without open tasks; one that takes
 * the project over its total (`budget`) is the budget's `ProjectError`.
 */
export async function readOpenTasks(
  file: string,
  optionalTasks: OptionalTasks,
  budget: ReadBudget,
  problems: ProjectProblem[]
): Promise<{open: OpenTask[]; optional: OpenTask[]}> {
  const text = await readCountedFile(file, budget, problems)
  if (typeof text !== 'string') return {open: [], optional: []}
  // The markdown reader loads only for a file to read.
  const {readTasks, taskList} = await import('./read-tasks.js')
  const {open, optional} = taskList(readTasks(file, text), optionalTasks)
  return {open, optional}
}
