/**
 * Install this repository's packages as a user does, in a fresh project
 * outside the repository, without the network.
 *
 * The README's install commands (`npm install --save-dev <tarball>` of the
 * release set) leave npm to fetch what the packages need from outside
 * (unified, remark-parse, …) from the registry. Here the registry is
 * `lockRegistry`: an HTTP server on the loopback interface that serves, for
 * each package the repository's package-lock.json locks, a packument of the
 * versions it locks, and their tarballs from npm's cache (which the
 * repository's own `npm ci` filled), found by their integrity. It knows no
 * package of this repository, as the npm registry does not yet: a package
 * that needed one from it would fail as it would for a user.
 */
import {execFile} from 'node:child_process'
import {createReadStream, existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import path from 'node:path'
import {promisify} from 'node:util'

const execFileAsync = promisify(execFile)

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

/** An entry of a lockfile's `packages`. */
interface LockEntry {
  version?: string
  resolved?: string
  integrity?: string
  link?: boolean
  [field: string]: unknown
}

/** The manifest fields npm reads from a packument's version. */
const packumentFields = ['dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines', 'os', 'cpu', 'license'] as const

export interface LockRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string
  /** Names asked for that it does not serve, in the order asked. */
  refused: string[]
  /** Tarballs asked for that npm's cache does not hold. */
  missing: string[]
  close(): Promise<void>
}

/** The file of npm's cache (cacache) that holds the content of `integrity`, if it names a sha512. */
function cacheFile(cache: string, integrity: string): string | undefined {
  const sha512 = integrity.split(/\s+/).find((hash) => hash.startsWith('sha512-'))
  if (!sha512) return undefined
  const hex = Buffer.from(sha512.slice('sha512-'.length), 'base64').toString('hex')
  return path.join(cache, '_cacache', 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4))
}

/** Order versions `x.y.z` as semver does (pre-releases aside). */
function byVersion(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split(/[.+-]/).slice(0, 3).map(Number))
  return x![0]! - y![0]! || x![1]! - y![1]! || x![2]! - y![2]!
}

/** Start the registry of what `repo`'s package-lock.json locks (see the module's comment). */
export async function startLockRegistry(repo: string): Promise<LockRegistry> {
  const lock = JSON.parse(await fs.readFile(path.join(repo, 'package-lock.json'), 'utf8')) as {packages: Record<string, LockEntry>}
  const {stdout} = await execFileAsync('npm', ['config', 'get', 'cache'], {cwd: repo, env: consumerEnv()})
  const cache = stdout.trim()

  const versions = new Map<string, Map<string, LockEntry>>()
  for (const [at, entry] of Object.entries(lock.packages)) {
    const index = at.lastIndexOf('node_modules/')
    // Registry packages only: the lockfile may leave their `resolved` out, never their integrity.
    if (index < 0 || entry.link || !entry.version || !entry.integrity || (entry.resolved !== undefined && !entry.resolved.startsWith('http'))) continue
    // An alias (`"wrap-ansi-cjs": "npm:wrap-ansi@^7"`) is the package it names.
    const name = typeof entry.name === 'string' ? entry.name : at.slice(index + 'node_modules/'.length)
    if (!versions.has(name)) versions.set(name, new Map())
    versions.get(name)!.set(entry.version, entry)
  }

  const refused: string[] = []
  const missing: string[] = []
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    const tarball = /^\/(.+)\/-\/(.+)\.tgz$/.exec(decodeURIComponent(url.pathname))
    if (tarball) {
      const entry = versions.get(tarball[1]!)?.get(tarball[2]!)
      const file = entry?.integrity ? cacheFile(cache, entry.integrity) : undefined
      if (!file || !existsSync(file)) {
        missing.push(`${tarball[1]}@${tarball[2]}`)
        response.writeHead(404).end()
        return
      }
      response.writeHead(200, {'content-type': 'application/octet-stream'})
      createReadStream(file).pipe(response)
      return
    }
    const name = decodeURIComponent(url.pathname.slice(1))
    const locked = versions.get(name)
    if (!locked) {
      refused.push(name)
      response.writeHead(404, {'content-type': 'application/json'}).end('{"error":"Not found"}')
      return
    }
    const base = `http://${request.headers.host}`
    const packument = {
      name,
      'dist-tags': {latest: [...locked.keys()].sort(byVersion).at(-1)},
      versions: Object.fromEntries(
        [...locked].map(([version, entry]) => [
          version,
          {
            name,
            version,
            ...Object.fromEntries(packumentFields.filter((field) => entry[field] !== undefined).map((field) => [field, entry[field]])),
            dist: {tarball: `${base}/${name}/-/${version}.tgz`, integrity: entry.integrity}
          }
        ])
      )
    }
    response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(packument))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    refused,
    missing,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

/** The environment of npm and the installed bins in the consumer: `registry`, a cache of its own, no colours, no GitHub. */
export function installEnv(registry: LockRegistry, cache: string): Record<string, string | undefined> {
  return {
    ...consumerEnvChanges(),
    npm_config_registry: registry.url,
    npm_config_cache: cache,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    TIERS_MAX_BLOCKS: undefined,
    GITHUB_ACTIONS: undefined
  }
}
