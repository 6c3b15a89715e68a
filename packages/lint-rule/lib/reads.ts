import {graphFileNames} from '@verification-tiers/graph/files'

/**
 * Files of a linted file's folders that `tiers lint` gives the rules too:
 * the slice graph of a contract folder (it says which contracts a verify
 * slice holds). A cache of messages must treat a change of one as a change
 * of the file.
 */
export const filesRulesRead: readonly string[] = graphFileNames
