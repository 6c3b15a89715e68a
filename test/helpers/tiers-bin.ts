/**
 * What the end-to-end tests of `tiers` share: run the real bin as a process,
 * run git in a test project, copy the example project or a fixture into a
 * temporary folder (the evidence fixture into a new committed repository), and
 * write a temporary project that resolves plugins from the repository.
 */
import {execFile, spawn} from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'

export const root = fileURLToPath(new URL('../..', import.meta.url))
export const tiersBin = path.join(root, 'node_modules', '.bin', 'tiers')
/** The real `remark` CLI, as installed for the repository. */
export const remarkBin = path.join(root, 'node_modules', '.bin', 'remark')
export const builtBin = path.join(root, 'packages', 'cli', 'dist', 'bin.js')
export const evidenceFixture = path.join(root, 'test', 'fixtures', 'evidence-project')
/** The example project’s `.greenlight` folder. */
export const exampleFolder = path.join(root, 'content', 'examples', 'greenlight-project', '.greenlight')

const execFileAsync = promisify(execFile)

/** The warning of every command on the example project, whose `config.json` still sets a deprecated setting. */
export const exampleDeprecation =
  '`workflow.visual_checkpoint` is deprecated and ignored: the verification tiers in contracts decide when a human checks a slice'

/** That warning as a line of `tiers`’ stderr. */
export const exampleWarning = `tiers: warning: ${exampleDeprecation}\n`

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Ignore the EPIPE of writing to a process that ended without reading its input; throw anything else. */
export function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error
}

/**
 * Run `command` in `cwd` and collect its output. `env` adds to (or, as
 * `undefined`, removes from) the environment; `input` is piped to it (none:
 * standard input ends at once).
 */
export function runProcess(
  command: string,
  args: readonly string[],
  {cwd, env = {}, input}: {cwd: string; env?: Record<string, string | undefined>; input?: string}
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const merged: NodeJS.ProcessEnv = {...process.env, ...env}
    for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key]
    const child = spawn(command, [...args], {cwd, env: merged, stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr}))
    // A process may end before it reads its input (a refusal, a crash): the pipe's EPIPE is no error of the test.
    child.stdin.on('error', ignoreClosedPipe)
    child.stdin.end(input ?? '')
  })
}

/** `script` of util-linux, which runs a command under a pseudo-terminal. */
export const scriptBin = '/usr/bin/script'

/** A word as a POSIX shell reads it back: in single quotes. */
const shellWord = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`

/**
 * Run the real bin in `cwd` with `input` piped to it. `TIERS_MAX_BLOCKS` and
 * `GITHUB_ACTIONS` (which picks `tiers lint`’s format) are cleared; `env` adds
 * to (or, as `undefined`, removes from) the environment. Standard input is a
 * pipe, as under a coding agent: an approval is refused. With `terminal`, it
 * is a pseudo-terminal instead (through `script`), as a person’s, which
 * `input` is typed into; stdout and stderr stay pipes of their own.
 */
export function runTiers(
  cwd: string,
  args: readonly string[],
  input = '',
  env: Record<string, string | undefined> = {},
  {terminal = false}: {terminal?: boolean} = {}
): Promise<Run> {
  const environment = {TIERS_MAX_BLOCKS: undefined, GITHUB_ACTIONS: undefined, ...env}
  if (!terminal) return runProcess(process.execPath, [tiersBin, ...args], {cwd, input, env: environment})
  return runAtTerminal(cwd, [process.execPath, tiersBin, ...args], {input, env: environment})
}

/**
 * Run `command` in `cwd` with a pseudo-terminal as its standard input:
 * `script` runs it, with what it writes to that terminal (`input` echoed)
 * thrown away, and its own stdout and stderr passed to it as pipes (file
 * descriptors 3 and 4), so they are collected as `runProcess` collects them.
 * `input` is typed into the terminal; then the input ends (Ctrl-D).
 */
export function runAtTerminal(
  cwd: string,
  command: readonly string[],
  {input = '', env = {}}: {input?: string; env?: Record<string, string | undefined>} = {}
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const merged: NodeJS.ProcessEnv = {...process.env, ...env}
    for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key]
    const line = `${command.map(shellWord).join(' ')} 1>&3 2>&4`
    const child = spawn(scriptBin, ['-qec', line, '/dev/null'], {cwd, env: merged, stdio: ['pipe', 'ignore', 'pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    let scriptErrors = ''
    const [out, err] = [child.stdio[3], child.stdio[4]] as NodeJS.ReadableStream[]
    out!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    err!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (scriptErrors += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr: stderr + scriptErrors}))
    child.stdin!.on('error', ignoreClosedPipe)
    child.stdin!.end(input)
  })
}

/**
 * Run the real bin in `cwd` in a process group of its own, killed with the
 * group after `limitMs`: a run that hangs comes back with `code: null`
 * instead of holding the test, and leaves nothing running. Standard input is
 * `input`, or with `inputFile` that file or device (`/dev/zero`); `env` adds
 * to (or, as `undefined`, removes from) the environment.
 */
export async function runTiersBounded(
  cwd: string,
  args: readonly string[],
  {input = '', inputFile, env = {}, limitMs}: {input?: string; inputFile?: string; env?: Record<string, string | undefined>; limitMs: number}
): Promise<Run> {
  const merged: NodeJS.ProcessEnv = {...process.env, ...env}
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key]
  const handle = inputFile === undefined ? null : await fs.open(inputFile, 'r')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tiersBin, ...args], {cwd, env: merged, stdio: [handle ? handle.fd : 'pipe', 'pipe', 'pipe'], detached: true})
    void handle?.close()
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {}
    }, limitMs)
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code, stdout, stderr})
    })
    child.stdin?.on('error', ignoreClosedPipe)
    child.stdin?.end(input)
  })
}

/** Run git in `cwd` as a test user, without signing; trimmed stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const {stdout} = await execFileAsync('git', ['-c', 'user.name=Tiers Test', '-c', 'user.email=tiers@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd
  })
  return stdout.trim()
}

/** A temporary copy of the evidence fixture (committed in a new git repository unless `commit` is false); `folders` collects it for removal. */
export async function evidenceProject(folders: string[], prefix: string, {commit = true} = {}): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)))
  folders.push(folder)
  await fs.cp(evidenceFixture, folder, {recursive: true})
  if (commit) {
    await git(folder, 'init', '-q')
    await git(folder, 'add', '-A')
    await git(folder, 'commit', '-q', '-m', 'Answer service')
  }
  return folder
}

/**
 * A temporary folder (its real path) holding a copy of the example’s
 * `.greenlight`; `folders` collects it for removal. `testCommand` stands in
 * for the example’s `npm test`, which has no package.json to run in there.
 */
export async function exampleProject(folders: string[], prefix: string, testCommand?: string): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)))
  folders.push(folder)
  await copyExample(path.join(folder, '.greenlight'))
  if (testCommand !== undefined) {
    const config = path.join(folder, '.greenlight', 'config.json')
    await fs.writeFile(config, (await fs.readFile(config, 'utf8')).replace('"npm test"', JSON.stringify(testCommand)))
  }
  return folder
}

/**
 * Copy the example project’s `.greenlight` to `target`, without the state a
 * `tiers` run in the repository may have left in it (`tiers/`).
 */
export async function copyExample(target: string): Promise<void> {
  const state = path.join(exampleFolder, 'tiers')
  await fs.cp(exampleFolder, target, {recursive: true, filter: (source) => source !== state && !source.startsWith(state + path.sep)})
}

/**
 * A temporary project (its real path): `files` written, `copies` copied from
 * the repository (`{'into/folder': 'content/examples/…'}`), and a
 * `node_modules` symlink to the repository’s, so that plugins resolve there
 * while the repository’s own `.remarkrc.json` and `.remarkignore` do not
 * reach it. `folders` collects it for removal.
 */
export async function linkedProject(
  folders: string[],
  prefix: string,
  files: Record<string, string | Buffer>,
  copies: Record<string, string> = {}
): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)))
  folders.push(folder)
  await fs.symlink(path.join(root, 'node_modules'), path.join(folder, 'node_modules'), 'dir')
  for (const [into, from] of Object.entries(copies)) await fs.cp(path.join(root, from), path.join(folder, into), {recursive: true})
  for (const [name, value] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, name)), {recursive: true})
    await fs.writeFile(path.join(folder, name), value)
  }
  return folder
}

/** A temporary copy of `test/fixtures/<name>`; `folders` collects it for removal. */
export async function fixtureCopy(folders: string[], name: string): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), `verification-tiers-${name}-`))
  folders.push(folder)
  await fs.cp(path.join(root, 'test', 'fixtures', name), folder, {recursive: true})
  return folder
}
