import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {createTwoFilesPatch, FILE_HEADERS_ONLY} from 'diff'
import writeFileAtomic from 'write-file-atomic'
import type {PlannedFile, Step} from './files.js'
import {checkWritesInside} from './inside.js'
import {planRemarkrc} from './remarkrc.js'
import {planStopHook} from './stop-hook.js'
import {planWorkflow} from './workflow.js'
import type {CiProvider} from './workflow.js'

/** What `tiers init` does in a project folder: every step, planned before anything is written. */
export async function planInit(cwd: string, options: {ci?: CiProvider | undefined}): Promise<Step[]> {
  const steps = [await planRemarkrc(cwd), await planStopHook(cwd)]
  if (options.ci === 'github') steps.push(await planWorkflow(cwd))
  return steps
}

/** Write the planned files, each atomically, creating their folders; none when one would go through a link out of `cwd` (`OutsideLinkError`). */
export async function writePlanned(cwd: string, planned: readonly PlannedFile[]): Promise<void> {
  await checkWritesInside(cwd, planned.map((each) => each.file))
  for (const each of planned) {
    const target = path.join(cwd, each.file)
    await mkdir(path.dirname(target), {recursive: true})
    await writeFileAtomic(target, each.after)
  }
}

/** A planned file as a unified diff (from `/dev/null` for a new file). */
export function plannedDiff(each: PlannedFile): string {
  return createTwoFilesPatch(each.before === null ? '/dev/null' : `a/${each.file}`, `b/${each.file}`, each.before ?? '', each.after, undefined, undefined, {context: 3, headerOptions: FILE_HEADERS_ONLY})
}
