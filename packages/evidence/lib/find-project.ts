/**
 * The project folder for work in a folder: the nearest folder of any tool
 * tiers reads, from the project package's registry, so the cli and the stop
 * hook find the same one.
 */
export {findProjectFolder, findProjectFolders} from '@verification-tiers/project'

/** Greenlight's folder, the first looked for in each folder. */
export const projectFolderName = '.greenlight'
