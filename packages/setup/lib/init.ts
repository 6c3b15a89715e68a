import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {createTwoFilesPatch, FILE_HEADERS_ONLY} from 'diff'
import writeFileAtomic from 'write-file-atomic'
import type {PlannedFile, Step} from './files.js'
import {planGitignore, stateInGit} from './gitignore.js'
import {checkWritesInside} from './inside.js'
import {planRemarkrc} from './remarkrc.js'
import {defaultHookAgent} from './agents.js'
import type {HookAgent} from './agents.js'
import {planStopHook} from './stop-hook.js'
import {planWorkflow} from './workflow.js'
import type {CiProvider, TestCommand} from './workflow.js'

/** The folder of a Greenlight project's contracts and state. */
export const greenlightFolder = '.greenlight'

/** The folder whose contracts `tiers init` sets up: the spec-driven tool's, else Greenlight's. */
export const contractsFolder = (tool: {folder: string} | null | undefined): string => tool?.folder ?? greenlightFolder

/**
 * What `tiers init` does in a project folder: every step, planned before
 * anything is written. `tool` is the spec-driven tool whose folder the
 * project holds (spec-kit's `specs`…), when it is not Greenlight: the same
 * remark configuration and Stop hook (which finds the folder itself) of
 * each of `agents` (Claude Code's when none is given), and a
 * workflow that lints the tool's files. Either way the workflow lints the
 * contracts' folder only and sets up what the project's test command
 * (`test`) needs, and `.gitignore` keeps the caches and the local state of
 * `<folder>/tiers` out of git.
 */
export async function planInit(
  cwd: string,
  options: {ci?: CiProvider | undefined; tool?: {name: string; folder: string} | null; test?: TestCommand; agents?: readonly HookAgent[]}
): Promise<Step[]> {
  const tool = options.tool ?? null
  const folder = contractsFolder(tool)
  const stateFolder = `${folder}/tiers`
  const hooks: Step[] = []
  for (const agent of options.agents ?? [defaultHookAgent]) hooks.push(await planStopHook(cwd, agent))
  const steps: Step[] = [await planRemarkrc(cwd), ...hooks, await planGitignore(cwd, stateFolder), {kind: 'note', text: stateInGit(stateFolder)}]
  if (tool) steps.unshift({kind: 'note', text: `found a ${tool.name} project in ${tool.folder}: tiers reads its files as they are`})
  if (options.ci === 'github') {
    for (const step of await planWorkflow(cwd, folder, options.test ?? null)) steps.push(step)
  }
  return steps
}

/** Write the planned files, each atomically, creating their folders; none when one would go through a link out of `cwd` (`OutsideLinkError`). */
export async function writePlanned(cwd: string, planned: readonly PlannedFile[]): Promise<void> {
  await checkWritesInside(
    cwd,
    planned.map((each) => each.file)
  )
  for (const each of planned) {
    const target = path.join(cwd, each.file)
    await mkdir(path.dirname(target), {recursive: true})
    await writeFileAtomic(target, each.after)
  }
}

/** A planned file as a unified diff (from `/dev/null` for a new file). */
export function plannedDiff(each: PlannedFile): string {
  return createTwoFilesPatch(each.before === null ? '/dev/null' : `a/${each.file}`, `b/${each.file}`, each.before ?? '', each.after, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY
  })
}
