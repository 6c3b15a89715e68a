// What the rules read besides the linted file, by name alone: for a cache that keys messages on it without loading a rule.
export {filesRulesRead} from './lib/reads.js'
