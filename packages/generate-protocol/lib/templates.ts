import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {templateError} from './errors.js'

/** A template that renders to one doc, under a line budget. */
export interface DocTemplate {
  /** Path from the templates folder: `references/verification-tiers.md.hbs`. */
  name: string
  /** Path as messages show it: `templates/references/verification-tiers.md.hbs`. */
  path: string
  /** Path from the output folder: `references/verification-tiers.md`. */
  output: string
  source: string
  /** Most lines the rendered doc may have. */
  budget: number
}

/** A partial: a format shared by the docs and the runtime. */
export interface PartialTemplate {
  /** Partial name, from the file name: `verify-checkpoint`. */
  name: string
  /** Path as messages show it: `templates/partials/verify-checkpoint.hbs`. */
  file: string
  source: string
}

const budgetComment = /^\{\{!--\s*budget:\s*(\d+)\s*--\}\}[ \t]*\r?\n/
export const partialsFolder = 'partials'

/**
 * Every `*.hbs` under `dir`: those in `partials/` are partials, the others
 * docs. `label` is how messages name the folder (default: `dir`).
 */
export async function loadTemplates(dir: string, label = dir): Promise<{docs: DocTemplate[]; partials: PartialTemplate[]}> {
  const files = (await readdir(dir, {recursive: true}))
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.hbs'))
    .sort()
  const docs: DocTemplate[] = []
  const partials: PartialTemplate[] = []
  for (const file of files) {
    const source = await readFile(path.join(dir, file), 'utf8')
    const shown = path.posix.join(label.split(path.sep).join('/'), file)
    if (file.startsWith(partialsFolder + '/')) {
      partials.push({name: path.posix.basename(file, '.hbs'), file: shown, source})
      continue
    }
    const budget = budgetComment.exec(source)
    if (!budget) {
      throw templateError(shown, 1, 1, 'Unexpected template without a line budget, expected `{{!-- budget: <lines> --}}` as its first line')
    }
    // The budget comment stays in the source: Handlebars drops a standalone
    // comment line whole, and error lines then match the file's.
    docs.push({name: file, path: shown, output: file.slice(0, -'.hbs'.length), source, budget: Number(budget[1])})
  }
  return {docs, partials}
}
