import {readdir} from 'node:fs/promises'
import path from 'node:path'

/** The folder of a Greenlight project, which `loadProject` reads itself. */
export const greenlightFolder = '.greenlight'

/** What a Greenlight folder holds: any one of these makes a folder one. */
const greenlightFiles = ['CONTRACTS.md', 'contracts', 'config.json', 'GRAPH.json', 'GRAPH.md']

/**
 * Greenlight: the project format `tiers` was made for (`CONTRACTS.md`,
 * `contracts/`, `GRAPH.json` or `GRAPH.md`, `config.json`). A folder named
 * `.greenlight`, or holding any of its files, is one, readable or not: the
 * loader says what is wrong with it rather than another tool reading it.
 */
export const greenlight = {
  name: 'greenlight',
  folder: greenlightFolder,
  async recognises(dir: string): Promise<boolean> {
    if (path.basename(path.resolve(dir)) === greenlightFolder) return true
    return (await greenlight.filesIn(dir)).length > 0
  },
  /** The files of `dir` that Greenlight writes (`config.json`, `CONTRACTS.md`…); none when it cannot be listed. */
  async filesIn(dir: string): Promise<string[]> {
    const entries = await readdir(dir).catch(() => [] as string[])
    return entries.filter((entry) => greenlightFiles.includes(entry))
  }
} as const
