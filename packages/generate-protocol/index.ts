export {GenerateError} from './lib/errors.js'
export {
  defaultPaths,
  defaultSettings,
  findStale,
  generateProtocol,
  packageTemplates,
  packageTemplatesLabel,
  projectConfig,
  renderContext,
  renderProtocol
} from './lib/generate.js'
export type {GenerateOptions, GeneratedFile, ProjectSettings} from './lib/generate.js'
export {describeOverrun, findOverruns, sectionSizes} from './lib/budget.js'
export type {BudgetOverrun, SectionSize} from './lib/budget.js'
export {countLines, renderDocs} from './lib/render.js'
export {loadTemplates} from './lib/templates.js'
export type {DocTemplate, PartialTemplate} from './lib/templates.js'
export {precompilePartials} from './lib/precompile.js'
export {settingsAjv, settingsValidatorsModule} from './lib/validators.js'
export {main, usage} from './lib/cli.js'
export {readIfExists, writeFileAtomic} from './lib/write.js'
