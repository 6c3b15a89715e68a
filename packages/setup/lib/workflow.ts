import {stat} from 'node:fs/promises'
import path from 'node:path'
import isRecord from 'is-plain-obj'
import type {Step} from './files.js'
import {parseJsonFile, readIfPresent} from './files.js'

export const workflowFile = '.github/workflows/verification-tiers.yml'

/** The CI providers `--ci` knows. */
export const ciProviders = ['github'] as const
export type CiProvider = (typeof ciProviders)[number]

/** The command the workflow lints the contracts with: their folder only, as other markdown (an agent's prompt) may hold example contracts. */
export const workflowLintCommand = (lintPath: string): string => `npx tiers lint --frail ${lintPath}`

/** The project's test command, which the workflow's `tiers verify --all` runs, and the settings file that sets it (`.greenlight/config.json`). */
export interface TestCommand {
  command: string | null
  settingsFile: string
}

/**
 * A toolchain a test command may need beyond the Node.js every workflow
 * sets up: the programs that tell it, and the step that sets it up, from
 * the project's own version file when it has one.
 */
interface Toolchain {
  name: string
  programs: readonly string[]
  action: string
  /** The `with:` of the step: from the version file when the project has it, else `fallback`. */
  versionFile: string
  versionFileKey: string
  fallback: [string, string]
  /** What the step leaves to the project, if anything. */
  leaves?: string
}

const toolchains: readonly Toolchain[] = [
  {name: 'Go', programs: ['go'], action: 'actions/setup-go@v5', versionFile: 'go.mod', versionFileKey: 'go-version-file', fallback: ['go-version', 'stable']},
  {
    name: 'Python',
    programs: ['python', 'python3', 'pytest', 'pip', 'pip3', 'tox', 'nox'],
    action: 'actions/setup-python@v5',
    versionFile: '.python-version',
    versionFileKey: 'python-version-file',
    fallback: ['python-version', "'3.x'"],
    leaves: 'it installs no packages: add the step that installs what the tests import'
  }
]

/** The programs Node.js brings, which every workflow has. */
const nodePrograms = ['npm', 'npx', 'node']

/**
 * The programs `command` runs, as a shell reads it: the first word of each
 * command of a list or pipeline (`cd api && go test ./...`: `cd`, `go`),
 * after any variable assignments (`CI=1 npm test`: `npm`).
 */
export function commandPrograms(command: string): string[] {
  const programs: string[] = []
  for (const part of command.split(/&&|\|\||[;|\n]/)) {
    const words = part
      .trim()
      .split(/\s+/)
      .filter((word) => word !== '')
    const program = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word))
    if (program !== undefined && !programs.includes(program)) programs.push(program)
  }
  return programs
}

/** What the workflow must set up for the test command: the toolchains it names, and the programs it runs that none of them brings. */
function toolchainsFor(command: string): {found: Toolchain[]; unknown: string[]} {
  const found: Toolchain[] = []
  const unknown: string[] = []
  // The shell's own commands and the basic tools every runner has.
  const shell = ['cd', 'env', 'exec', 'export', 'set', 'true', 'false', 'test', '[', 'echo', 'sh', 'bash', 'cat', 'tee', 'timeout', 'xargs']
  for (const program of commandPrograms(command)) {
    const toolchain = toolchains.find((each) => each.programs.includes(path.basename(program)))
    if (toolchain) {
      if (!found.includes(toolchain)) found.push(toolchain)
    } else if (!nodePrograms.includes(path.basename(program)) && !shell.includes(program)) unknown.push(program)
  }
  return {found, unknown}
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false
  )
}

/** The steps that set up `found`, as workflow lines, and how each takes its version. */
async function setupSteps(cwd: string, found: readonly Toolchain[]): Promise<{lines: string; said: string[]}> {
  let lines = ''
  const said: string[] = []
  for (const toolchain of found) {
    const fromFile = await exists(path.join(cwd, toolchain.versionFile))
    const [key, value] = fromFile ? [toolchain.versionFileKey, toolchain.versionFile] : toolchain.fallback
    lines += `      - uses: ${toolchain.action}\n        with:\n          ${key}: ${value}\n`
    const version = fromFile ? `the version ${toolchain.versionFile} names` : `version ${value.replace(/'/g, '')}`
    said.push(`${toolchain.name} set up by ${toolchain.action.replace(/@.*$/, '')} (${version})${toolchain.leaves ? `; ${toolchain.leaves}` : ''}`)
  }
  return {lines, said}
}

/**
 * The workflow, its `tiers lint` on `lintPath`, the contracts' folder, the
 * steps that set up what the test command needs (`setup`), and `tiers ci`,
 * which holds the merge while a verify slice the change touched has no
 * person's approval: judged since the pull request's base, or since the
 * commit a push started from (all the history is fetched for it).
 */
const workflowFor = (lintPath: string, setup: string) => `name: Verification tiers
on: [push, pull_request]
jobs:
  tiers:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-node@v4
        with:
          node-version: 20
${setup}      - run: npm ci
      - run: ${workflowLintCommand(lintPath)}
      - run: npx tiers verify --all
      - run: |
          base="\${{ github.event_name == 'pull_request' && format('origin/{0}', github.base_ref) || github.event.before }}"
          if git rev-parse -q --verify "$base^{commit}" > /dev/null; then npx tiers ci --base "$base"; else npx tiers ci; fi
`

/**
 * What `tiers verify --all` runs in the workflow, said: the project's test
 * command and what is set up for it, a command needing what the workflow
 * does not set up, or no test command at all (the workflow then runs only
 * the checks the criteria name).
 */
function testCommandNote(test: TestCommand, said: readonly string[], unknown: readonly string[]): Step {
  const verify = 'the workflow’s `npx tiers verify --all`'
  if (test.command === null) {
    return {
      kind: 'note',
      text: `no test command is set (\`test.command\` in ${test.settingsFile}): ${verify} runs only the checks the criteria name, no test suite; set one, such as \`{"test": {"command": "npm test"}}\`, to run the project’s tests too`
    }
  }
  const runs = `${verify} runs the project’s test command, \`${test.command}\` (\`test.command\` in ${test.settingsFile})`
  const setUp = ['Node.js set up by actions/setup-node', ...said]
  const missing =
    unknown.length === 0
      ? ''
      : `; the workflow sets up nothing for ${unknown.map((program) => `\`${program}\``).join(', ')}: if the runner (ubuntu-latest) lacks ${unknown.length === 1 ? 'it' : 'them'}, add the steps that install ${unknown.length === 1 ? 'it' : 'them'} to ${workflowFile}`
  return {kind: 'note', text: `${runs}, with ${setUp.join(', ')}${missing}`}
}

/**
 * What the workflow's `npm ci` needs that the project does not hold: a
 * package.json and its lockfile, and every package they install from a
 * file (`file:../tiers/cli.tgz`) inside the project, as a runner's
 * checkout holds nothing else.
 */
async function installNotes(cwd: string): Promise<Step[]> {
  const text = await readIfPresent(cwd, 'package.json')
  if (text === null) {
    return [
      {
        kind: 'note',
        text: 'the workflow installs tiers with `npm ci`, which needs package.json and package-lock.json here: install tiers in the project (`npm install --save-dev @verification-tiers/cli remark-preset-lint-verification-tiers`) and commit both'
      }
    ]
  }
  const manifest = parseJsonFile('package.json', text)
  const outside: string[] = []
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const entries = isRecord(manifest) && isRecord(manifest[field]) ? Object.entries(manifest[field]) : []
    for (const [name, spec] of entries) {
      if (typeof spec !== 'string' || !spec.startsWith('file:')) continue
      const relative = path.relative(cwd, path.resolve(cwd, spec.slice('file:'.length)))
      if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) outside.push(`${name} (\`${spec}\`)`)
    }
  }
  const notes: Step[] = []
  if (outside.length > 0) {
    notes.push({
      kind: 'note',
      text: `package.json installs ${outside.join(', ')} from outside the project: a runner’s checkout has no such file, so the workflow’s \`npm ci\` fails; keep ${outside.length === 1 ? 'the tarball' : 'the tarballs'} in the project, such as in vendor/, and install from there (\`npm install --save-dev ./vendor/<file>.tgz\`)`
    })
  }
  if (!(await exists(path.join(cwd, 'package-lock.json'))))
    notes.push({kind: 'note', text: 'the workflow’s `npm ci` needs package-lock.json, which is not here: run `npm install` and commit it'})
  return notes
}

/**
 * The CI step: a GitHub Actions workflow that lints the contracts in
 * `lintPath` (`.greenlight`, or a spec-driven tool's folder such as `specs`),
 * sets up what the project's test command needs (Go, Python) and runs the
 * checks; an existing file is never replaced. With `test` (`null`: not
 * known), a note says what the workflow's `tiers verify --all` runs; and
 * notes say what its `npm ci` needs that the project does not hold.
 */
export async function planWorkflow(cwd: string, lintPath: string, test: TestCommand | null): Promise<Step[]> {
  const {found, unknown} = test?.command ? toolchainsFor(test.command) : {found: [], unknown: []}
  const {lines, said} = await setupSteps(cwd, found)
  const workflow = workflowFor(lintPath, lines)
  const lint = workflowLintCommand(lintPath)
  const note: Step[] = [...(test ? [testCommandNote(test, said, unknown)] : []), ...(await installNotes(cwd))]
  const text = await readIfPresent(cwd, workflowFile)
  if (text === workflow) return [{kind: 'unchanged', file: workflowFile, reason: 'the workflow is already there'}, ...note]
  if (text !== null) {
    return [
      {kind: 'note', text: `${workflowFile} exists and differs: left as it is (it should run \`${lint}\`, \`npx tiers verify --all\` and \`npx tiers ci\`)`},
      ...note
    ]
  }
  return [
    {
      kind: 'write',
      planned: {
        file: workflowFile,
        before: null,
        after: workflow,
        change: `runs \`${lint}\`, \`npx tiers verify --all\` and \`npx tiers ci\` on every push and pull request`
      }
    },
    ...note
  ]
}
