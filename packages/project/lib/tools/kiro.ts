import type {ProjectTool} from './types.js'

/** Kiro: a stub that recognises no folder yet, so that the registry builds; its reader replaces it. */
export const kiro: ProjectTool = {
  name: 'kiro',
  folder: '.kiro',
  recognises: async () => false,
  read: async () => ({contracts: [], slices: [], problems: []})
}
