// The workspace packages of the repository, as its package.json lists them
// (`packages/*`, `templates`): the folders that hold a package.json, from
// the root, with `/`, sorted. The scripts and tests that go over every
// package ask here, so a package outside `packages/` is not left out.
import {existsSync} from 'node:fs'
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'

/** The folders of the workspace packages of the repository at `root`. */
export async function workspaceFolders(root) {
  const {workspaces = []} = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'))
  const folders = []
  for (const pattern of workspaces) {
    if (!pattern.endsWith('/*')) {
      folders.push(pattern)
      continue
    }
    const parent = pattern.slice(0, -2)
    const entries = existsSync(path.join(root, parent)) ? await readdir(path.join(root, parent), {withFileTypes: true}) : []
    for (const entry of entries) if (entry.isDirectory()) folders.push(`${parent}/${entry.name}`)
  }
  return folders.filter((folder) => existsSync(path.join(root, folder, 'package.json'))).sort()
}
