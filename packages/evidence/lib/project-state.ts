import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {FileReadError, inputLimits, readInputFile} from '@verification-tiers/runtime'

const doneWords = new Set(['complete', 'completed', 'done'])

/**
 * The slices the project’s own state files call complete: a slice file
 * (`slices/*.md`) whose front matter says `id: <slice>` and `status:
 * complete`; a `STATE.md` table row whose first cell is the slice id and
 * whose `Status` column says complete; a `STATE.md` item `- [x] <slice> …`.
 * Ids match exactly. Where two of them disagree (a slice file complete, a
 * `STATE.md` row pending), the slice is not complete; anything else, or a
 * file that cannot be read, says nothing: the slice stays in progress.
 */
export async function completedByProject(dir: string): Promise<Set<string>> {
  const done = new Set<string>()
  const notDone = new Set<string>()
  const note = (said: SliceSaid | null) => {
    if (said) (said.done ? done : notDone).add(said.id)
  }
  const state = await readQuietly(path.join(dir, 'STATE.md'))
  if (state) for (const said of slicesInState(state)) note(said)
  const folder = path.join(dir, 'slices')
  const names = await readdir(folder).catch(() => [] as string[])
  for (const name of names.filter((entry) => entry.endsWith('.md')).sort()) {
    const text = await readQuietly(path.join(folder, name))
    if (text) note(sliceInSliceFile(text))
  }
  for (const id of notDone) done.delete(id)
  return done
}

/** What a state file says of one slice: complete or not. */
interface SliceSaid {
  id: string
  done: boolean
}

/** A state file that is missing, not a regular file or too large tells nothing. */
async function readQuietly(file: string): Promise<string | undefined> {
  try {
    return await readInputFile(file, {limit: inputLimits.json})
  } catch (error) {
    if (error instanceof FileReadError) return undefined
    throw error
  }
}

/** What a slice file’s front matter says of its slice, when it has an `id` and a `status`. */
function sliceInSliceFile(text: string): SliceSaid | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text)
  if (!match?.[1]) return null
  const fields = new Map<string, string>()
  for (const line of match[1].split(/\r?\n/)) {
    const field = /^([A-Za-z_]+):[ \t]*(.*?)[ \t]*$/.exec(line)
    if (!field?.[1]) continue
    // A field given twice says two things: nothing is taken from it.
    if (fields.has(field[1])) return null
    fields.set(field[1], (field[2] ?? '').replace(/^(["'])(.*)\1$/, '$2'))
  }
  const id = fields.get('id')
  const status = fields.get('status')
  return id && status !== undefined ? {id, done: doneWords.has(status.toLowerCase())} : null
}

/** What `STATE.md` says of slices: items checked or not, and table rows under a `Status` column. */
function slicesInState(text: string): SliceSaid[] {
  const said: SliceSaid[] = []
  let statusColumn: number | null = null
  for (const line of text.split(/\r?\n/)) {
    const item = /^\s*[-*] \[([ xX])\] +([^\s:.,]+)(?:[\s:.,]|$)/.exec(line)
    if (item?.[2]) said.push({id: item[2], done: item[1] !== ' '})
    if (!/^\s*\|/.test(line)) {
      statusColumn = null
      continue
    }
    const cells = line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim())
    if (statusColumn === null) {
      const index = cells.findIndex((cell) => cell.toLowerCase() === 'status')
      statusColumn = index > 0 ? index : -1
      continue
    }
    // The row under the header (`| --- |`) names no slice.
    if (statusColumn > 0 && cells[0] && !/^:?-+:?$/.test(cells[0])) said.push({id: cells[0], done: doneWords.has((cells[statusColumn] ?? '').toLowerCase())})
  }
  return said
}
