import {FileReadError} from '@verification-tiers/runtime'
import type {ReadBudget} from '../budget.js'
import type {ProjectProblem} from '../problems.js'
import type {OpenTask, OptionalTasks} from './types.js'

/**
 * The unticked tasks of a `tasks.md` (`- [ ] …` items at any depth, with an
 * id or none), each with its line, the optional ones apart unless they
 * hold; none when there is no file. A file that cannot be read is a
 * problem, never a project without open tasks; one that takes the project
 * over its total (`budget`) is the budget's `ProjectError`.
 */
export async function readOpenTasks(file: string, optionalTasks: OptionalTasks, budget: ReadBudget): Promise<{open: OpenTask[]; optional: OpenTask[]; problems: ProjectProblem[]}> {
  let text: string | undefined
  try {
    text = await budget.read(file)
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error
    return {open: [], optional: [], problems: [{file, line: error.place?.line ?? null, message: `${error.reason}; its open tasks cannot be counted`}]}
  }
  if (text === undefined) return {open: [], optional: [], problems: []}
  // The markdown reader loads only for a file to read.
  const {readTasks, taskList} = await import('./read-tasks.js')
  const {open, optional} = taskList(readTasks(file, text), optionalTasks)
  return {open, optional, problems: []}
}
