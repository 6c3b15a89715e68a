// The docs links alone, for a reporter or a tool that names the rules without loading them.
export {repositoryUrl, ruleUrl} from './lib/url.js'
