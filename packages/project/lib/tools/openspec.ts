import type {ProjectTool} from './types.js'

/** OpenSpec: a stub that recognises no folder yet, so that the registry builds; its reader replaces it. */
export const openspec: ProjectTool = {
  name: 'openspec',
  folder: 'openspec',
  recognises: async () => false,
  read: async () => ({contracts: [], slices: [], problems: []})
}
