/** What gives the lint rules the slice graph: a unified plugin, and the reading it gives (the rules read no file). */
export {default, projectGraphs} from './lib/remark.js'
export type {ProjectGraphs} from './lib/remark.js'
