export {templateCompileOptions, templateHelperNames, templateHelpers} from './lib/helpers.js'
