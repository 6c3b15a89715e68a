import {stat} from 'node:fs/promises'
import path from 'node:path'
import {parseCommandArgs} from '../command-args.js'
import {exitCodes, firstLine, UserError} from '../errors.js'
import {counted} from '../words.js'
import {
  ciProviders,
  contractsFolder,
  defaultHookAgent,
  hookAgent,
  hookAgentIds,
  hookAgents,
  planInit,
  plannedDiff,
  unknownAgent,
  writePlanned
} from '@verification-tiers/setup'
import type {CiProvider, HookAgent, PlannedFile, Step, TestCommand} from '@verification-tiers/setup'

export const initUsage = `Usage: tiers init [options]

Set this project up for verification tiers, and say what was done:
  .remarkrc.json          remark-preset-lint-verification-tiers added to the
                          remark configuration (merged into .remarkrc,
                          .remarkrc.json or package.json#remarkConfig; a new
                          .remarkrc.json where there is none)
  .claude/settings.json   a Stop hook entry running \`npx tiers stop-hook\`,
                          beside the hooks already there; for each other
                          agent the project uses (its folder is there:
                          .codex, .cursor, .gemini, .github/hooks) its own
                          hook file instead (.codex/hooks.json,
                          .cursor/hooks.json, .gemini/settings.json,
                          .github/hooks/tiers.json), each running
                          \`npx tiers stop-hook --agent <name>\`
  .gitignore              the caches and local state kept out of git: the
                          contracts cache, the lint cache, the last
                          verification run, the Stop hook’s count and locks
                          (each slice’s answers and history,
                          tiers/<slice>.json, belong in git)
  --ci github             also .github/workflows/verification-tiers.yml,
                          running \`tiers lint --frail .greenlight\` (the
                          contracts’ folder only), \`tiers verify --all\`
                          (the project’s test command too: the workflow
                          sets up Go or Python when it runs them, and a
                          note says what it runs) and \`tiers ci\`;
                          and, when the contracts have warnings today,
                          tiers-lint-baseline.json accepting them, so that CI
                          fails on new ones only (\`tiers lint
                          --update-baseline .greenlight\` updates it)
What was done is printed on stdout, a line a file, and notes: what to
commit, what the workflow needs that the project does not hold, a deprecated
setting. A second run changes nothing. A file that cannot be merged (not
JSON, or not the shape expected), or settings that cannot be read, stop the
run before anything is written. Lines added to .gitignore go after the lines
there, none of which changes.

Options:
  --agent <name>   set the hook up for this agent (${hookAgentIds.join(', ')}),
                   not for those found from their folders; may be repeated
  --ci <provider>  also write a CI workflow (${ciProviders.join(', ')})
  --dry-run        print the changes as a unified diff; write nothing
  -h, --help       show this help

Exit codes: 0 done (or nothing to do); 1 a bad option; 2 a file that cannot
be merged or read, named with the reason.`

interface InitSettings {
  ci: CiProvider | undefined
  dryRun: boolean
  /** The agents `--agent` names, in order, each once; empty: those found from their folders. */
  agents: HookAgent[]
}

function parseInitArgs(argv: readonly string[]): InitSettings | null {
  const parsed = parseCommandArgs(
    {
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        agent: {type: 'string', multiple: true},
        ci: {type: 'string'},
        'dry-run': {type: 'boolean', default: false},
        help: {type: 'boolean', short: 'h', default: false}
      }
    },
    {command: 'init', usage: (name) => (name === 'agent' ? '--agent <name>' : '--ci <provider>')}
  )
  const {values} = parsed
  if (values.help) return null
  if (values.ci !== undefined && !(ciProviders as readonly string[]).includes(values.ci)) {
    throw new UserError(`Unexpected \`--ci ${values.ci}\`, expected one of ${ciProviders.join(', ')}`)
  }
  const agents: HookAgent[] = []
  for (const id of values.agent ?? []) {
    const agent = hookAgent(id)
    if (agent === null) throw new UserError(unknownAgent(id))
    if (!agents.includes(agent)) agents.push(agent)
  }
  return {ci: values.ci as CiProvider | undefined, dryRun: values['dry-run'], agents}
}

/** The agents the project uses, found from their folders (\`.codex\`, \`.cursor\`…), by their ids; Claude Code’s when none is there. */
async function agentsIn(cwd: string): Promise<HookAgent[]> {
  const found: HookAgent[] = []
  for (const agent of [...hookAgents].sort((a, b) => a.id.localeCompare(b.id))) {
    if (
      await stat(path.join(cwd, agent.folder)).then(
        (info) => info.isDirectory(),
        () => false
      )
    )
      found.push(agent)
  }
  return found.length > 0 ? found : [defaultHookAgent]
}

/**
 * The settings file of the project `tiers init` sets up
 * (`.greenlight/config.json`, or the tool folder’s `tiers.json`), read as
 * every command reads it (one that cannot be is an error naming its line
 * and column): the test command `tiers verify` runs, and a deprecated
 * setting it still sets, which `init` says once here rather than every
 * command on every run.
 */
async function readSettings(cwd: string, tool: {folder: string} | null): Promise<{test: TestCommand; deprecated: string | null}> {
  // Loaded here only: the runtime reads settings as every command does.
  const {deprecationWarning, FileReadError, projectTestCommand, readProjectConfig} = await import('@verification-tiers/runtime')
  const {toolConfigFile} = await import('@verification-tiers/project')
  const settingsFile = `${contractsFolder(tool)}/${tool ? toolConfigFile : 'config.json'}`
  let config
  try {
    ;({config} = await readProjectConfig(path.join(cwd, settingsFile)))
  } catch (error) {
    // Named from the project folder, as every other file init names.
    if (error instanceof FileReadError) throw new FileReadError(settingsFile, error.reason, error.place)
    throw error
  }
  const deprecated = deprecationWarning(config)
  return {test: {command: projectTestCommand(config), settingsFile}, deprecated: deprecated && `${settingsFile}: ${deprecated}`}
}

/** The spec-driven tool (not Greenlight) whose folder is in `cwd`, with that folder as CI names it; `null` for none. */
async function toolIn(cwd: string): Promise<{name: string; folder: string} | null> {
  // Loaded here only: init needs no more of the gate.
  const {greenlight, tools} = await import('@verification-tiers/project')
  // A Greenlight folder is the project's, whatever else is beside it.
  if (
    await stat(path.join(cwd, greenlight.folder)).then(
      () => true,
      () => false
    )
  )
    return null
  for (const tool of tools) {
    if (await tool.recognises(path.join(cwd, tool.folder))) return {name: tool.name, folder: tool.folder}
  }
  return null
}

/**
 * The baseline step of `--ci`: `folder` linted as the workflow lints it,
 * and the warnings found today accepted in a new baseline, so that the
 * first run passes and a new warning fails it. Errors are never accepted: a
 * note says the workflow fails until they are fixed. An existing baseline is
 * kept; a note says what it does not cover.
 */
async function planLintBaseline(cwd: string, folder: string): Promise<Step[]> {
  if (
    !(await stat(path.join(cwd, folder)).then(
      () => true,
      () => false
    ))
  ) {
    return [{kind: 'note', text: `${folder} does not exist yet: the workflow’s \`tiers lint\` fails until it holds the contracts`}]
  }
  // Loaded here only: a plain `tiers init` lints nothing.
  const {applyLintBaseline, defaultLintBaselinePath, formatLintBaseline, lintBaselineOf, lintBaselineSize, lintFiles, readLintBaseline} = await import(
    '@verification-tiers/lint'
  )
  const result = await lintFiles({
    cwd,
    files: [folder],
    frail: true,
    quiet: true,
    silent: false,
    color: false,
    detectConfig: true,
    detectIgnore: true,
    ignorePatterns: [],
    format: 'stylish',
    fix: false,
    fixDryRun: false,
    baseline: false
  })
  const steps: Step[] = []
  const errors = result.files.flatMap((file) => file.messages.filter((message) => message.fatal === true).map((message) => ({file, message})))
  const [first] = errors
  if (first) {
    const place = first.message.line ? `:${first.message.line}:${first.message.column}` : ''
    // The engine's own failures say why in their cause (a plugin that is not installed).
    const cause = first.message.cause === undefined ? '' : `: ${firstLine(first.message.cause)}`
    steps.push({
      kind: 'note',
      text: `\`tiers lint ${folder}\` finds ${counted(errors.length, 'error')} today, which no baseline accepts: the workflow fails until they are fixed (the first: ${first.file.path}${place}: ${firstLine(first.message.reason)}${cause})`
    })
  }
  const update = `npx tiers lint --update-baseline ${folder}`
  const baseline = lintBaselineOf(result.files, cwd)
  const {warnings} = lintBaselineSize(baseline)
  const existing = await readLintBaseline(path.join(cwd, defaultLintBaselinePath), defaultLintBaselinePath)
  if (existing) {
    const applied = applyLintBaseline(result.files, existing, cwd)
    const left = applied.files.reduce((count, file) => count + file.messages.filter((message) => message.fatal === false).length, 0)
    steps.push(
      left === 0
        ? {kind: 'unchanged', file: defaultLintBaselinePath, reason: `it accepts the ${counted(warnings, 'warning')} \`tiers lint ${folder}\` finds today`}
        : {
            kind: 'note',
            text: `${defaultLintBaselinePath} does not accept ${counted(left, 'warning')} \`tiers lint ${folder}\` finds today: the workflow fails until they are fixed, or \`${update}\` accepts them`
          }
    )
  } else if (warnings > 0) {
    const change = `accepts the ${counted(warnings, 'warning')} \`tiers lint ${folder}\` finds today, so the workflow fails on new ones only; \`${update}\` updates it`
    steps.push({kind: 'write', planned: {file: defaultLintBaselinePath, before: null, after: formatLintBaseline(baseline), change}})
  }
  return steps
}

/** Output of `tiers init`. */
export interface InitIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

/** Run `tiers init` in `cwd`; resolves to the exit code. */
export async function runInit(argv: readonly string[], io: InitIo, cwd: string = process.cwd()): Promise<number> {
  let settings
  try {
    settings = parseInitArgs(argv)
  } catch (error) {
    io.stderr(`tiers: ${firstLine(error)}`)
    return exitCodes.user
  }
  if (!settings) {
    io.stdout(initUsage)
    return exitCodes.ok
  }
  try {
    const tool = await toolIn(cwd)
    const {test, deprecated} = await readSettings(cwd, tool)
    const agents = settings.agents.length > 0 ? settings.agents : await agentsIn(cwd)
    const steps = await planInit(cwd, {ci: settings.ci, tool, test, agents})
    if (deprecated) steps.push({kind: 'note', text: deprecated})
    const written = (list: readonly Step[]): PlannedFile[] => list.flatMap((step) => (step.kind === 'write' ? [step.planned] : []))
    const apply = async (list: readonly PlannedFile[]) => {
      if (settings.dryRun) for (const each of list) io.stdout(plannedDiff(each).replace(/\n$/, ''))
      else await writePlanned(cwd, list)
    }
    await apply(written(steps))
    // Linted once the remark configuration is written, as the workflow will lint.
    if (settings.ci) {
      const baselineSteps = await planLintBaseline(cwd, contractsFolder(tool))
      await apply(written(baselineSteps))
      for (const step of baselineSteps) steps.push(step)
    }
    const planned = written(steps)
    const verb = (each: PlannedFile) =>
      settings.dryRun ? (each.before === null ? 'would create' : 'would update') : each.before === null ? 'created' : 'updated'
    // What was done is the command's output: stdout, as `--dry-run`'s diff; stderr is for what went wrong.
    for (const step of steps) {
      if (step.kind === 'write') io.stdout(`${verb(step.planned)} ${step.planned.file}: ${step.planned.change}`)
      else if (step.kind === 'unchanged') io.stdout(`unchanged ${step.file}: ${step.reason}`)
      else io.stdout(`note: ${step.text}`)
    }
    if (planned.length === 0) io.stdout('nothing to change')
    return exitCodes.ok
  } catch (error) {
    io.stderr(`tiers: ${firstLine(error)}`)
    return exitCodes.broken
  }
}
