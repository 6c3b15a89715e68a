import {templateCompileOptions, templateHelpers} from '@verification-tiers/protocol'
import Handlebars from 'handlebars'
import type {DocTemplate, PartialTemplate} from './templates.js'
import {GenerateError, templateError} from './errors.js'

/** A rendered doc, before it is checked against its budget and written. */
export interface RenderedDoc {
  template: DocTemplate
  text: string
  lines: number
}

/**
 * Render every doc with the partials registered by name, in strict mode: a
 * missing value, unknown helper or unknown partial fails with the template’s
 * name and line.
 */
export function renderDocs(
  docs: readonly DocTemplate[],
  partials: readonly PartialTemplate[],
  context: object,
  notice: (template: DocTemplate) => string
): RenderedDoc[] {
  const handlebars = Handlebars.create()
  handlebars.registerHelper(templateHelpers)
  const known = new Set(partials.map((partial) => partial.name))
  for (const partial of partials) checkPartials(partial.file, partial.source, known)
  for (const doc of docs) checkPartials(doc.path, doc.source, known)
  for (const partial of partials) {
    const template = attributed(partial.file, handlebars.compile(partial.source, templateCompileOptions))
    handlebars.registerPartial(partial.name, template)
  }
  return docs.map((doc) => {
    const render = attributed(doc.path, handlebars.compile(doc.source, templateCompileOptions))
    const text = notice(doc) + render(context).replace(/\n*$/, '\n')
    return {template: doc, text, lines: countLines(text)}
  })
}

/** Lines of a text that ends in a line break. */
export function countLines(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

/** Turn a Handlebars error into one line naming the template and position. */
export function toTemplateError(file: string, error: unknown): GenerateError {
  if (error instanceof GenerateError) return error
  const raw = error instanceof Error ? error.message : String(error)
  const located = error as {lineNumber?: unknown; column?: unknown}
  let line = typeof located.lineNumber === 'number' ? located.lineNumber : null
  let column = typeof located.column === 'number' ? located.column + 1 : null
  const parse = /^Parse error on line (\d+):[\s\S]*\n(Expecting [\s\S]*)$/.exec(raw)
  if (parse) {
    line = Number(parse[1])
    column = null
  }
  const reason = (parse ? parse[2] : raw.split('\n')[0]).replace(/ not defined in .*$/, ' not defined').replace(/ - \d+:\d+$/, '')
  return templateError(file, line, column, reason)
}

/**
 * Fail on a `{{> name}}` whose partial does not exist, at its line and column
 * (Handlebars itself only finds out while rendering, and without a position).
 * Partial blocks (`{{#> name}}…{{/name}}`) have a fallback and are not checked.
 */
function checkPartials(file: string, source: string, known: ReadonlySet<string>): void {
  let tree: hbs.AST.Program
  try {
    tree = Handlebars.parse(source)
  } catch (error) {
    throw toTemplateError(file, error)
  }
  const visitor = new Handlebars.Visitor()
  visitor.PartialStatement = (partial) => {
    if (partial.name.type === 'PathExpression' && !known.has(partial.name.original)) {
      throw templateError(file, partial.loc.start.line, partial.loc.start.column + 1, `The partial ${partial.name.original} could not be found`)
    }
  }
  visitor.accept(tree)
}

function attributed(file: string, template: Handlebars.TemplateDelegate): Handlebars.TemplateDelegate {
  return (context, options) => {
    try {
      return template(context, options)
    } catch (error) {
      throw toTemplateError(file, error)
    }
  }
}
