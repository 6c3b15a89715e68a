/** What the runtime’s tests share: temporary folders, removed after the file’s tests. */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll} from 'vitest'

/** A function giving a new temporary folder named from `prefix` each call; all are removed after the calling file’s tests. */
export function temporaryFolders(prefix: string): () => Promise<string> {
  const folders: string[] = []
  afterAll(async () => {
    await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
  })
  return async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), prefix))
    folders.push(folder)
    return folder
  }
}
