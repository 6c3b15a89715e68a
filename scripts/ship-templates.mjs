// Part of `npm run generate-protocol`: copy the repository's templates/ into
// the generate-protocol package, which ships them and renders them for a
// user's project (`generate-protocol --project`). The copy is committed;
// test/generate-protocol-project.test.ts fails when it differs.
import {cpSync, rmSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const shipped = path.join(root, 'packages', 'generate-protocol', 'templates')
rmSync(shipped, {recursive: true, force: true})
cpSync(path.join(root, 'templates'), shipped, {recursive: true})
console.log('copied templates/ to packages/generate-protocol/templates/')
