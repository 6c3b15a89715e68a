// The names of a folder's graph files alone: for a caller that must not load the readers (a warm lint cache).
export {graphFileNames, graphFiles} from './lib/files.js'
