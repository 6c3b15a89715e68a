// The edit distance alone, for a program that suggests the name meant without loading the runtime.
export {editDistance} from './lib/edit-distance.js'
