// The edit distance alone, for a program that suggests the name meant (`tiers`, a settings reader) without loading the model.
export {editDistance} from './lib/edit-distance.js'
