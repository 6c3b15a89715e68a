/**
 * A SIGTERM or SIGINT while `tiers verify` lints the contracts ends it with
 * 143 or 130 and records nothing: the status file stays as it was. The lint
 * is made slow by a plugin of the project's own remark configuration, which
 * writes a marker file as it starts and then holds its thread for 20 s;
 * the signal is sent once the marker is there.
 *
 * Run `npx tsc -b` first: the bin is `packages/cli/dist/bin.js`.
 */
import {spawn} from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'
import {builtBin, copyExample, linkedProject, tiersBin} from './helpers/tiers-bin.js'

const folders: string[] = []

beforeAll(async () => {
  await fs.access(builtBin)
})

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A remark plugin that marks that the lint started, then keeps the lint busy without a turn of the event loop. */
const slowPlugin = `import {writeFileSync} from 'node:fs'
export default function slowLint() {
  return () => {
    writeFileSync(process.env.LINT_MARKER, 'linting')
    const until = Date.now() + 20_000
    while (Date.now() < until && process.env.LINT_MARKER) {}
  }
}
`

async function slowProject(): Promise<string> {
  const folder = await linkedProject(folders, 'verification-tiers-verify-signal-', {
    '.remarkrc.json': JSON.stringify({plugins: ['remark-preset-lint-verification-tiers', './slow-lint.mjs']}),
    'slow-lint.mjs': slowPlugin
  })
  await copyExample(path.join(folder, '.greenlight'))
  const config = path.join(folder, '.greenlight', 'config.json')
  await fs.writeFile(config, (await fs.readFile(config, 'utf8')).replace('"npm test"', '"true"'))
  return folder
}

/** The status file's text, or `null` when there is none. */
const statusText = (folder: string) => fs.readFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), 'utf8').catch(() => null)

describe('tiers verify interrupted while it lints', () => {
  it.for([
    ['SIGTERM', 143],
    ['SIGINT', 130]
  ] as const)('%s: exit %d, nothing recorded', async ([signal, exitCode], {expect}) => {
    const folder = await slowProject()
    const marker = path.join(folder, 'lint-started')
    // A run recorded before, which the interrupted run must leave as it is.
    await fs.mkdir(path.join(folder, '.greenlight', 'tiers'), {recursive: true})
    const recorded = JSON.stringify({version: 1, runs: []})
    await fs.writeFile(path.join(folder, '.greenlight', 'tiers', 'verification-status.json'), recorded)
    const child = spawn(process.execPath, [tiersBin, 'verify', 'S-01'], {
      cwd: folder,
      env: {...process.env, LINT_MARKER: marker},
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.stdout.resume()
    const ended = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) => child.on('close', (code, signal) => resolve({code, signal})))
    try {
      // The lint has started once the plugin wrote its marker.
      while (
        !(await fs.access(marker).then(
          () => true,
          () => false
        ))
      )
        await new Promise((resolve) => setTimeout(resolve, 20))
      child.kill(signal)
      expect(await ended).toEqual({code: exitCode, signal: null})
      expect(stderr).toBe(`tiers: interrupted by ${signal}: the running checks were stopped and nothing was recorded\n`)
      expect(await statusText(folder)).toBe(recorded)
    } finally {
      child.kill('SIGKILL')
    }
  })
})
