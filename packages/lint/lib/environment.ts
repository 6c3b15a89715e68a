import {createHash} from 'node:crypto'
import {readdir, readFile} from 'node:fs/promises'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {filesRulesRead} from '@verification-tiers/lint-rule/reads'
import type {LintSettings} from './settings.js'

/**
 * Files of a folder that can change what a file below it lints to: the
 * configuration files the remark CLI looks for, the manifests and lockfiles
 * that say which plugins (and which versions) are installed, and what the
 * rules read beside a file (a contract folder's slice graph).
 */
const environmentFiles = [
  ...filesRulesRead,
  '.remarkrc',
  '.remarkrc.json',
  '.remarkrc.js',
  '.remarkrc.cjs',
  '.remarkrc.mjs',
  '.remarkrc.yml',
  '.remarkrc.yaml',
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  path.join('node_modules', '.package-lock.json')
]

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file)
  } catch {
    return null
  }
}

/** The `.js` files of a package, sorted; not those of packages inside it, which are digested as their own or covered by the lockfiles. */
async function codeFiles(folder: string): Promise<string[]> {
  const files: string[] = []
  const folders = [folder]
  for (let current = folders.pop(); current !== undefined; current = folders.pop()) {
    for (const entry of await readdir(current, {withFileTypes: true}).catch(() => [])) {
      const full = path.join(current, entry.name)
      if (entry.isDirectory() && entry.name !== 'node_modules') folders.push(full)
      else if (entry.isFile() && entry.name.endsWith('.js')) files.push(full)
    }
  }
  return files.sort()
}

/** The folder of the package whose entry point is `file`: the nearest folder above it with a `package.json`. */
async function packageFolder(file: string): Promise<string> {
  let folder = path.dirname(file)
  while ((await readOrNull(path.join(folder, 'package.json'))) === null && path.dirname(folder) !== folder) folder = path.dirname(folder)
  return folder
}

/**
 * A digest of the built code of the default preset, its rules and the
 * contract model: a change to any of them (a new version, or a rebuild of
 * this repository’s own packages) invalidates what was cached with them.
 */
async function ownCodeDigest(): Promise<string> {
  const hash = createHash('sha256')
  const seen = new Set<string>()
  const visit = async (name: string, from: string): Promise<void> => {
    let entry: string
    try {
      entry = createRequire(from).resolve(name)
    } catch {
      return
    }
    const folder = await packageFolder(entry)
    if (seen.has(folder)) return
    seen.add(folder)
    const manifest = JSON.parse(String(await readFile(path.join(folder, 'package.json')))) as {dependencies?: Record<string, string>}
    for (const file of await codeFiles(folder)) hash.update(path.relative(folder, file)).update('\0').update(await readFile(file)).update('\0')
    const ours = Object.keys(manifest.dependencies ?? {}).filter((dependency) => dependency.startsWith('remark-lint-') || dependency.startsWith('@verification-tiers/'))
    for (const dependency of ours) await visit(dependency, entry)
  }
  await visit('remark-preset-lint-verification-tiers', fileURLToPath(import.meta.url))
  return hash.digest('hex')
}

/** Digests of what, besides a file’s own text, decides its messages; each folder read once per run. */
export function environmentDigests(settings: Pick<LintSettings, 'detectConfig' | 'rcPath' | 'cwd'>): (file: string) => Promise<string> {
  const folders = new Map<string, Promise<string>>()
  const base = (async () => {
    const hash = createHash('sha256').update(await ownCodeDigest())
    hash.update(JSON.stringify({detectConfig: settings.detectConfig, rcPath: settings.rcPath ?? null}))
    if (settings.rcPath) hash.update((await readOrNull(path.resolve(settings.cwd, settings.rcPath))) ?? '')
    return hash.digest('hex')
  })()
  const folderDigest = (folder: string): Promise<string> => {
    let digest = folders.get(folder)
    if (!digest) {
      digest = (async () => {
        const parent = path.dirname(folder)
        const hash = createHash('sha256').update(parent === folder ? await base : await folderDigest(parent))
        for (const name of environmentFiles) {
          const content = await readOrNull(path.join(folder, name))
          if (content !== null) hash.update(name).update('\0').update(content).update('\0')
        }
        return hash.digest('hex')
      })()
      folders.set(folder, digest)
    }
    return digest
  }
  return (file) => folderDigest(path.dirname(path.resolve(settings.cwd, file)))
}
