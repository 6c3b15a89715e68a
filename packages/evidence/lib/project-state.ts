import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {FileReadError, inputLimits, readInputFile} from '@verification-tiers/runtime'

const doneWords = new Set(['complete', 'completed', 'done'])

/** A place where the workflow’s own files call a slice complete: the file and its line (from 1). */
export interface WorkflowClaim {
  slice: string
  file: string
  line: number
}

/**
 * Every place the workflow’s own files call a slice complete: a slice file
 * (`slices/*.md`) whose front matter says `id: <slice>` and `status:
 * complete` (or `completed`, `done`), at its `status` line; a `STATE.md`
 * table row whose first cell is the slice id and whose `Status` column says
 * so; a `STATE.md` item `- [x] <slice> …`. Ids are as written. These are
 * what the agent says it did, never evidence: no claim makes a slice done
 * (see `judgeProgress`), each is named where the slice is held. A file
 * that is missing or cannot be read claims nothing.
 */
export async function workflowClaims(dir: string): Promise<WorkflowClaim[]> {
  const claims: WorkflowClaim[] = []
  const stateFile = path.join(dir, 'STATE.md')
  const state = await readQuietly(stateFile)
  if (state) for (const said of slicesInState(state)) claims.push({...said, file: stateFile})
  const folder = path.join(dir, 'slices')
  const names = await readdir(folder).catch(() => [] as string[])
  for (const name of names.filter((entry) => entry.endsWith('.md')).sort()) {
    const file = path.join(folder, name)
    const text = await readQuietly(file)
    const said = text ? sliceInSliceFile(text) : null
    if (said) claims.push({...said, file})
  }
  return claims
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

/** Where a slice file’s front matter calls its slice complete, when it has an `id` and a `status` saying so. */
function sliceInSliceFile(text: string): {slice: string; line: number} | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text)
  if (!match?.[1]) return null
  const fields = new Map<string, {value: string; line: number}>()
  for (const [index, line] of match[1].split(/\r?\n/).entries()) {
    const field = /^([A-Za-z_]+):[ \t]*(.*?)[ \t]*$/.exec(line)
    if (!field?.[1]) continue
    // A field given twice says two things: nothing is taken from it.
    if (fields.has(field[1])) return null
    // The front matter starts on line 2, under `---`.
    fields.set(field[1], {value: (field[2] ?? '').replace(/^(["'])(.*)\1$/, '$2'), line: index + 2})
  }
  const id = fields.get('id')?.value
  const status = fields.get('status')
  return id && status && doneWords.has(status.value.toLowerCase()) ? {slice: id, line: status.line} : null
}

/** Where `STATE.md` calls slices complete: items checked, and table rows under a `Status` column. */
function slicesInState(text: string): Array<{slice: string; line: number}> {
  const said: Array<{slice: string; line: number}> = []
  let statusColumn: number | null = null
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const item = /^\s*[-*] \[[xX]\] +([^\s:.,]+)(?:[\s:.,]|$)/.exec(line)
    if (item?.[1]) said.push({slice: item[1], line: index + 1})
    if (!/^\s*\|/.test(line)) {
      statusColumn = null
      continue
    }
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim())
    if (statusColumn === null) {
      const column = cells.findIndex((cell) => cell.toLowerCase() === 'status')
      statusColumn = column > 0 ? column : -1
      continue
    }
    // The row under the header (`| --- |`) names no slice.
    if (statusColumn > 0 && cells[0] && !/^:?-+:?$/.test(cells[0]) && doneWords.has((cells[statusColumn] ?? '').toLowerCase()))
      said.push({slice: cells[0], line: index + 1})
  }
  return said
}
