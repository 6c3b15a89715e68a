import {stat} from 'node:fs/promises'
import path from 'node:path'
import * as protocol from '@verification-tiers/protocol'
import {inputLimits, readInputFile} from '@verification-tiers/input'
import {templatesFolder} from '@verification-tiers/templates'
import {describeOverrun, findOverruns} from './budget.js'
import {GenerateError} from './errors.js'
import {precompilePartials} from './precompile.js'
import {renderDocs} from './render.js'
import {loadTemplates, partialsFolder} from './templates.js'
import type {DocTemplate} from './templates.js'
import {settingsValidatorsModule} from './validators.js'
import {readIfExists, writeFileAtomic} from './write.js'

/** Where to read templates and write what they give; paths relative to `root`. */
export interface GenerateOptions {
  /** Project root (default: the working directory). */
  root?: string
  /**
   * Render for the project in this folder: the templates of
   * `@verification-tiers/templates` (unless `templates`), with the settings of its `.greenlight/config.json`,
   * into `out` (then required); no partials module unless `partials`.
   */
  project?: string
  /** Settings file to read instead of `<project>/.greenlight/config.json` (with `project` only). */
  config?: string
  /** Templates folder (default `templates`; with `project`, `@verification-tiers/templates`). */
  templates?: string
  /** Output folder of the docs (default `content`; required with `project`). */
  out?: string
  /** The precompiled partials module, in the protocol package (default `packages/protocol/partials.generated.js`; none with `project`). */
  partials?: string
  /** The settings validators module, in the protocol package (default `packages/protocol/settings-validators.generated.js`; none with `project`). */
  validators?: string
}

/** One file the templates give. */
export interface GeneratedFile {
  /** Path relative to the root, with `/`. */
  file: string
  text: string
  /** Lines and budget, for docs. */
  lines: number | null
  budget: number | null
}

export const defaultPaths = {
  templates: 'templates',
  out: 'content',
  partials: 'packages/protocol/partials.generated.js',
  validators: 'packages/protocol/settings-validators.generated.js'
} as const

/** The templates package, a dependency of this one, which `project` renders: the repository’s top-level `templates/`. */
export const packageTemplates = templatesFolder

/** How messages and notices name the templates package. */
export const packageTemplatesLabel = '@verification-tiers/templates'

/** The settings file of a project folder. */
export const projectConfig = '.greenlight/config.json'

/** The settings of a project that change its protocol docs. */
export interface ProjectSettings {
  /** Rejections of one slice before the escalation (`workflow.rejection_threshold`). */
  rejectionThreshold: number
}

/** The protocol’s own settings, for a project that sets none. */
export const defaultSettings: ProjectSettings = {rejectionThreshold: protocol.rejectionThreshold}

/**
 * A project’s settings from its `config.json`, read and checked as `tiers`
 * reads it (the protocol’s `parseProjectConfig`, against the file’s schema),
 * so both name a bad file in the same words; `null` when there is none.
 * `label` is how messages name it. The protocol's `settings` loads the
 * validators this generator writes: it is loaded here only, for a project,
 * so a missing or stale validators module never stops their regeneration.
 */
async function readProjectSettings(file: string, label: string): Promise<ProjectSettings | null> {
  const text = await readInputFile(file, {limit: inputLimits.json})
  if (text === undefined) return null
  const {parseProjectConfig} = await import('@verification-tiers/protocol/settings')
  return {rejectionThreshold: parseProjectConfig(label, text).threshold}
}

/** Render everything in memory; throws a `GenerateError` (options, a template, the budgets) or a `FileReadError` for a bad settings file. */
export async function renderProtocol(options: GenerateOptions = {}): Promise<GeneratedFile[]> {
  const root = path.resolve(options.root ?? '.')
  const relative = (file: string) => path.relative(root, path.resolve(root, file)).split(path.sep).join('/')
  const forProject = options.project !== undefined
  if (!forProject && options.config !== undefined) throw new GenerateError('--config needs --project: the settings are a project’s', true)
  if (forProject && options.out === undefined) throw new GenerateError('--project needs --out <dir>, the folder to write the docs into', true)
  const out = options.out ?? defaultPaths.out

  let settings: ProjectSettings = defaultSettings
  let settingsLabel: string | null = null
  if (forProject) {
    if (!(await isFolder(path.resolve(root, options.project!)))) throw new GenerateError(`${relative(options.project!) || '.'}: no such project folder`)
    const config = options.config ?? path.join(options.project!, projectConfig)
    const read = await readProjectSettings(path.resolve(root, config), relative(config))
    if (read) {
      settings = read
      settingsLabel = relative(config)
    }
  }

  const shipped = forProject && options.templates === undefined
  const templates = shipped ? packageTemplates : path.resolve(root, options.templates ?? defaultPaths.templates)
  const label = shipped ? packageTemplatesLabel : relative(templates)
  if (!(await isFolder(templates))) {
    if (options.templates === undefined) {
      throw new GenerateError(
        `no templates folder at ${label}: to render the protocol docs for your project, run \`generate-protocol --project . --out <dir>\``,
        true
      )
    }
    throw new GenerateError(`${label}: no such templates folder`)
  }
  const {docs, partials} = await loadTemplates(templates, label)

  const outputPath = (output: string) => relative(path.join(out, output))
  const notice = (template: DocTemplate) =>
    shipped
      ? `<!-- Generated by generate-protocol from ${template.path}${settingsLabel ? ` with the settings of ${settingsLabel}` : ''}: run it again instead of editing this file. -->\n\n`
      : `<!-- Generated by generate-protocol from ${template.path}: edit the template, not this file. -->\n\n`
  const rendered = renderDocs(docs, partials, renderContext(settings), notice)
  // Budgets hold the templates: they are checked on the docs as the
  // protocol's defaults render them, so a project's longer escalation
  // example (one line per rejection of its threshold) does not fail them.
  const budgeted =
    settings.rejectionThreshold === defaultSettings.rejectionThreshold ? rendered : renderDocs(docs, partials, renderContext(defaultSettings), notice)
  const overruns = findOverruns(budgeted, outputPath)
  if (overruns.length > 0) throw new GenerateError(overruns.map(describeOverrun).join('\n'))
  const files: GeneratedFile[] = rendered.map((doc, index) => ({
    file: outputPath(doc.template.output),
    text: doc.text,
    lines: doc.lines,
    // The template's budget, plus the lines the project's settings add.
    budget: doc.template.budget + Math.max(0, doc.lines - budgeted[index].lines)
  }))
  const partialsModule = options.partials ?? (forProject ? undefined : defaultPaths.partials)
  if (partialsModule !== undefined) {
    files.push({
      file: relative(partialsModule),
      text: precompilePartials(partials, `${label}/${partialsFolder}/`),
      lines: null,
      budget: null
    })
  }
  const validatorsModule = options.validators ?? (forProject ? undefined : defaultPaths.validators)
  if (validatorsModule !== undefined) files.push({file: relative(validatorsModule), text: settingsValidatorsModule(), lines: null, budget: null})
  return files
}

/** What doc templates render with: the protocol, with a project's settings in place of its defaults. */
export function renderContext(settings: ProjectSettings): {protocol: Record<string, unknown>; placeholders: typeof protocol.placeholders} {
  return {
    protocol: {...protocol, rejectionThreshold: settings.rejectionThreshold},
    placeholders: {...protocol.placeholders, escalation: protocol.escalationPlaceholder(settings.rejectionThreshold)}
  }
}

async function isFolder(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory()
  } catch {
    return false
  }
}

/** Files whose text on disk differs from what the templates give (or that are missing). */
export async function findStale(files: readonly GeneratedFile[], root = '.'): Promise<GeneratedFile[]> {
  const stale: GeneratedFile[] = []
  for (const file of files) {
    if ((await readIfExists(path.resolve(root, file.file))) !== file.text) stale.push(file)
  }
  return stale
}

/** Render, check budgets, then write what changed, each file atomically. Returns the files written. */
export async function generateProtocol(options: GenerateOptions = {}): Promise<{files: GeneratedFile[]; written: GeneratedFile[]}> {
  const root = path.resolve(options.root ?? '.')
  const files = await renderProtocol(options)
  const written = await findStale(files, root)
  for (const file of written) await writeFileAtomic(path.resolve(root, file.file), file.text)
  return {files, written}
}
