/**
 * Install this repository's packages the way a user gets them: `npm pack`
 * each workspace package, then `npm ci --offline` the tarballs into a fresh
 * project outside the repository, so nothing resolves from the workspace.
 *
 * `npm ci` needs a lockfile, and `--offline` needs every tarball in npm's
 * cache, which the repository's own `npm ci` filled. The project's lockfile
 * is made from the repository's: each external package at the version,
 * `resolved` URL and integrity the repository locked (only those the packed
 * packages and the extra tools need, at the same places in the tree), and
 * each of our packages from its tarball. No registry is asked for anything.
 */
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import {promisify} from 'node:util'

const execFileAsync = promisify(execFile)

interface Manifest {
  name: string
  version: string
  license?: string
  bin?: string | Record<string, string>
  engines?: Record<string, string>
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, {optional?: boolean}>
  optionalDependencies?: Record<string, string>
}

/** An entry of a lockfile's `packages`. */
type LockEntry = Partial<Manifest> & {resolved?: string; integrity?: string; link?: boolean; dev?: boolean; devOptional?: boolean; [key: string]: unknown}

interface Lockfile {
  lockfileVersion: number
  packages: Record<string, LockEntry>
}

/** One packed workspace package. */
export interface Packed {
  name: string
  /** Its folder in the repository: `packages/cli`. */
  dir: string
  manifest: Manifest
  /** The tarball, relative to the consumer project: `packs/verification-tiers-cli-0.1.0.tgz`. */
  tarball: string
}

/**
 * The environment for npm in the consumer: without what `npm test` hands
 * its scripts about the repository (its prefix, package and lifecycle), so
 * npm works on the consumer, not on the repository.
 */
export function consumerEnv(): NodeJS.ProcessEnv {
  const env = {...process.env}
  for (const key of Object.keys(env)) {
    if (key === 'INIT_CWD' || key === 'npm_config_local_prefix' || key.startsWith('npm_package_') || key.startsWith('npm_lifecycle_')) delete env[key]
  }
  return env
}

/** The same, as `runProcess` takes it: `undefined` for each variable left out. */
export function consumerEnvChanges(): Record<string, string | undefined> {
  const kept = consumerEnv()
  return Object.fromEntries(Object.keys(process.env).map((key) => [key, kept[key]]))
}

/** Pack every `packages/*` with a package.json into `<consumer>/packs`. */
export async function packWorkspaces(repo: string, consumer: string): Promise<Packed[]> {
  const packs = path.join(consumer, 'packs')
  await fs.mkdir(packs, {recursive: true})
  const dirs = (await fs.readdir(path.join(repo, 'packages'))).sort().filter((dir) => existsSync(path.join(repo, 'packages', dir, 'package.json')))
  const {stdout} = await execFileAsync('npm', ['pack', '--json', '--pack-destination', packs, ...dirs.map((dir) => path.join(repo, 'packages', dir))], {
    cwd: repo,
    env: consumerEnv(),
    maxBuffer: 64 * 1024 * 1024
  })
  const packed = JSON.parse(stdout) as Array<{name: string; filename: string}>
  return Promise.all(
    dirs.map(async (dir, index) => ({
      name: packed[index]!.name,
      dir: `packages/${dir}`,
      manifest: JSON.parse(await fs.readFile(path.join(repo, 'packages', dir, 'package.json'), 'utf8')) as Manifest,
      tarball: `packs/${packed[index]!.filename}`
    }))
  )
}

/**
 * Write the consumer's package.json and package-lock.json: `direct` (names
 * of our packages) and `tools` (external packages, at the repository's
 * locked version) as devDependencies, as a user would add them.
 */
export async function writeConsumer(repo: string, consumer: string, packed: readonly Packed[], direct: readonly string[], tools: readonly string[]): Promise<void> {
  const lock = JSON.parse(await fs.readFile(path.join(repo, 'package-lock.json'), 'utf8')) as Lockfile
  const ours = new Map(packed.map((pkg) => [pkg.name, pkg]))
  const workspaceOf = new Map(packed.map((pkg) => [pkg.dir, pkg.name]))
  const entries: Record<string, LockEntry> = {}
  const seen = new Set<string>()

  // Paths are the repository lock's; a workspace's folder becomes the
  // consumer's `node_modules/<name>`, with what is nested in it.
  const toConsumer = (at: string): string => {
    for (const [dir, name] of workspaceOf) {
      if (at === dir || at.startsWith(`${dir}/`)) return `node_modules/${name}${at.slice(dir.length)}`
    }
    return at
  }
  const parent = (at: string): string => {
    const index = at.lastIndexOf('/node_modules/')
    return index >= 0 ? at.slice(0, index) : ''
  }
  // Node's lookup: the closest `node_modules/<name>` up the tree.
  const resolve = (from: string, name: string): string | null => {
    for (let at = from; ; at = parent(at)) {
      const candidate = `${at === '' ? '' : `${at}/`}node_modules/${name}`
      if (candidate === `node_modules/${name}` && ours.has(name)) return candidate
      if (lock.packages[candidate] && !lock.packages[candidate]!.link) return candidate
      if (at === '') return null
    }
  }
  const need = (at: string, entry: LockEntry): void => {
    if (seen.has(at)) return
    seen.add(at)
    const wanted = {...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies}
    for (const name of Object.keys(wanted)) {
      const found = resolve(at, name)
      if (found === null) {
        if (entry.optionalDependencies?.[name] !== undefined || entry.peerDependenciesMeta?.[name]?.optional) continue
        throw new Error(`${at || 'the consumer'} needs ${name}, which the repository's package-lock.json does not hold where ${at} finds it`)
      }
      if (ours.has(name) && found === `node_modules/${name}`) needOurs(name)
      else need(found, lock.packages[found]!)
    }
    if (workspaceOf.has(at)) return
    const {dev: _dev, devOptional: _devOptional, ...kept} = entry
    entries[toConsumer(at)] = kept
  }
  const needOurs = (name: string): void => {
    const pkg = ours.get(name)
    if (!pkg) throw new Error(`${name} is not one of the packed packages`)
    const at = `node_modules/${name}`
    if (entries[at]) return
    const {version, license, bin, engines, dependencies, peerDependencies, peerDependenciesMeta} = pkg.manifest
    entries[at] = JSON.parse(JSON.stringify({version, resolved: `file:${pkg.tarball}`, license, bin, engines, dependencies, peerDependencies, peerDependenciesMeta})) as LockEntry
    need(pkg.dir, pkg.manifest as LockEntry)
  }

  const devDependencies: Record<string, string> = {}
  for (const name of direct) {
    devDependencies[name] = `file:${ours.get(name)?.tarball ?? name}`
    needOurs(name)
  }
  for (const name of tools) {
    const entry = lock.packages[`node_modules/${name}`]
    if (!entry?.version) throw new Error(`${name} is not in the repository's package-lock.json`)
    devDependencies[name] = entry.version
    need(`node_modules/${name}`, entry)
  }
  const sorted = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)))
  const manifest = {name: 'outside-install', version: '1.0.0', private: true, type: 'module', scripts: {test: 'node --version'}, devDependencies}
  const root = {name: manifest.name, version: manifest.version, devDependencies}
  await fs.writeFile(path.join(consumer, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
  await fs.writeFile(
    path.join(consumer, 'package-lock.json'),
    JSON.stringify({name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: {'': root, ...sorted}}, null, 2) + '\n'
  )
}

/** `npm ci --offline` in the consumer: every tarball from npm's cache or the packs. */
export async function installOffline(consumer: string): Promise<void> {
  await execFileAsync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {cwd: consumer, env: consumerEnv(), maxBuffer: 64 * 1024 * 1024})
}
