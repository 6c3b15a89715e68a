// Where the templates are, for the generator that renders them: this package's own folder.
import path from 'node:path'
import {fileURLToPath} from 'node:url'

export const templatesFolder = path.dirname(fileURLToPath(import.meta.url))
