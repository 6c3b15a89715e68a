import {createHash} from 'node:crypto'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {filesRulesRead} from '@verification-tiers/lint-rule/reads'
import type {LintSettings} from './settings.js'
import {readRegularFile} from './regular-file.js'
import {stampOf} from './stamp.js'

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

/**
 * What `file` holds, as a digest takes it: `null` when it is absent, `f` and
 * its bytes for a regular file, `o` for anything else, which is not opened (a
 * FIFO would hold the run). Read at once, not through the thread pool: a
 * wait costs more than the read.
 */
function contentOf(file: string): Buffer | null {
  const content = readRegularFile(file)
  return content === 'other' ? Buffer.from('o') : content && Buffer.concat([Buffer.from('f'), content])
}

/** The names in `folder`, or `null` when it cannot be listed (each file is then opened by its name). */
function namesIn(folder: string): Set<string> | null {
  try {
    return new Set(readdirSync(folder))
  } catch {
    return null
  }
}

/** The code digest, and what it was computed from (see `codeDigest`). */
export interface CodeMemo {
  digest: string
  /** The module that computed it: another installation computes its own. */
  origin: string
  /** The program folder given, or `null`. */
  program: string | null
  /** `[path, stampOf(path)]` of each path read or looked at, taken before it was read. */
  stamps: Array<[string, string]>
}

export function isCodeMemo(value: unknown): value is CodeMemo {
  if (typeof value !== 'object' || value === null) return false
  const memo = value as Record<string, unknown>
  const isStamp = (each: unknown) => Array.isArray(each) && each.length === 2 && each.every((part) => typeof part === 'string')
  return (
    typeof memo.digest === 'string' &&
    typeof memo.origin === 'string' &&
    (memo.program === null || typeof memo.program === 'string') &&
    Array.isArray(memo.stamps) &&
    memo.stamps.every(isStamp)
  )
}

const origin = fileURLToPath(import.meta.url)

/** The folder of the package whose entry point is `file`: the nearest folder above it with a `package.json`. */
function packageFolder(file: string): string {
  let folder = path.dirname(file)
  while (!existsSync(path.join(folder, 'package.json')) && path.dirname(folder) !== folder) folder = path.dirname(folder)
  return folder
}

/**
 * The paths whose change could make `name` resolve elsewhere from `from`:
 * each folder from `from`’s up to the one whose `node_modules` holds `name`,
 * its `node_modules`, the scope folder, and the candidate itself. A closer
 * copy appearing adds an entry to one of them, which changes its times.
 */
function lookupPaths(from: string, name: string): string[] {
  const paths: string[] = []
  const scope = name.startsWith('@') ? name.slice(0, name.indexOf('/')) : null
  for (let folder = path.dirname(from); ; folder = path.dirname(folder)) {
    paths.push(folder)
    // Below a folder that is absent nothing is looked at: making it changes the stamp of the folder above.
    const candidate = path.join(folder, 'node_modules', name)
    for (const each of [path.join(folder, 'node_modules'), ...(scope ? [path.join(folder, 'node_modules', scope)] : []), candidate]) {
      paths.push(each)
      if (!existsSync(each)) break
    }
    if (existsSync(candidate) || path.dirname(folder) === folder) return paths
  }
}

/** Whether a dependency is code of ours or a lint rule: its code decides messages or the report. */
const isWalked = (name: string): boolean => name.startsWith('@verification-tiers/') || name.startsWith('remark-lint-') || name.startsWith('remark-preset-lint-')

/**
 * Read the code that decides a lint’s messages and report: this package, the
 * preset, its rules and the contract model (each package of ours or rule it
 * depends on), and the `.js` files below `program` (the calling program’s own
 * folder, whose words are part of what it prints).
 */
function computeCode(program: string | null): CodeMemo {
  const hash = createHash('sha256')
  const stamps = new Map<string, string>()
  const stamped = (file: string): boolean => {
    const stamp = stampOf(file)
    // The first stamp is kept: it was taken before the path was read.
    if (!stamps.has(file)) stamps.set(file, stamp)
    return stamp !== '-'
  }
  // The `.js` files of a folder, sorted; not those of packages inside it, which are walked as their own or covered by the lockfiles.
  const digestFolder = (top: string): void => {
    const files: string[] = []
    const folders = [top]
    for (let current = folders.pop(); current !== undefined; current = folders.pop()) {
      // Stamped before it is read: an entry added or removed after changes its stamp.
      if (!stamped(current)) continue
      for (const entry of readdirSync(current, {withFileTypes: true})) {
        const full = path.join(current, entry.name)
        if (entry.isDirectory() && entry.name !== 'node_modules') folders.push(full)
        else if (entry.isFile() && entry.name.endsWith('.js')) files.push(full)
      }
    }
    for (const file of files.sort()) {
      if (stamped(file)) hash.update(path.relative(top, file)).update('\0').update(readFileSync(file)).update('\0')
    }
  }
  const seen = new Set<string>()
  const visit = (folder: string, entry: string): void => {
    if (seen.has(folder)) return
    seen.add(folder)
    const manifestFile = path.join(folder, 'package.json')
    stamped(manifestFile)
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {dependencies?: Record<string, string>}
    hash.update(path.basename(folder)).update('\0')
    digestFolder(folder)
    for (const name of Object.keys(manifest.dependencies ?? {})
      .filter(isWalked)
      .sort()) {
      // Stamped before resolving, and whether it resolves or not: a package installed later changes them.
      for (const each of lookupPaths(entry, name)) stamped(each)
      let dependency: string
      try {
        dependency = createRequire(entry).resolve(name)
      } catch {
        continue
      }
      visit(packageFolder(dependency), dependency)
    }
  }
  visit(packageFolder(origin), origin)
  if (program !== null) {
    hash.update('\0program\0')
    digestFolder(program)
  }
  return {digest: hash.digest('hex'), origin, program, stamps: [...stamps]}
}

/**
 * The digest of the code that decides a lint’s messages and report (see
 * `computeCode`): a change to any of it (a new version, or a rebuild of this
 * repository’s own packages) invalidates what was cached with it.
 *
 * `memo`, from an earlier run, is taken as it is when nothing it was computed
 * from changed, without reading the code again or resolving a name. That is
 * safe: every folder walked, file read and path where a package was looked
 * up (see `lookupPaths`) has the same stamp (see `stampOf`): a package
 * installed again, a file rebuilt, a closer copy of a package or a link made
 * again each change one.
 */
export function codeDigest(memo: CodeMemo | undefined, program: string | null = null): CodeMemo {
  if (memo && memo.origin === origin && memo.program === program && memo.stamps.every(([file, stamp]) => stampOf(file) === stamp)) return memo
  return computeCode(program)
}

/** Digests of what, besides a file’s own text, decides its messages; each folder read once per run. */
export function environmentDigests(settings: Pick<LintSettings, 'detectConfig' | 'rcPath' | 'cwd'>, code: string): (file: string) => Promise<string> {
  const folders = new Map<string, Promise<string>>()
  const base = (async () => {
    const hash = createHash('sha256').update(code)
    hash.update(JSON.stringify({detectConfig: settings.detectConfig, rcPath: settings.rcPath ?? null}))
    if (settings.rcPath) hash.update(contentOf(path.resolve(settings.cwd, settings.rcPath)) ?? '-')
    return hash.digest('hex')
  })()
  const folderDigest = (folder: string): Promise<string> => {
    let digest = folders.get(folder)
    if (!digest) {
      digest = (async () => {
        const parent = path.dirname(folder)
        const hash = createHash('sha256').update(parent === folder ? await base : await folderDigest(parent))
        const names = namesIn(folder)
        for (const name of environmentFiles) {
          // A name the folder does not list is not there: it is not opened (most are not there).
          if (names !== null && !names.has(name.split(path.sep)[0])) continue
          const content = contentOf(path.join(folder, name))
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
