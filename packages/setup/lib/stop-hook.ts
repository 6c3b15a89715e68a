import type {Step} from './files.js'
import isRecord from 'is-plain-obj'
import {FileReadError} from '@verification-tiers/input/read'
import {parseJsonFile, readIfPresent, setJson, toJson} from './files.js'

export const settingsFile = '.claude/settings.json'
/** The command the agent runs when it wants to stop. */
export const stopHookCommand = 'npx tiers stop-hook'

/** Whether a hook entry already runs `tiers stop-hook`, however it is invoked. */
function runsStopHook(entry: unknown): boolean {
  if (!isRecord(entry) || !Array.isArray(entry.hooks)) return false
  return entry.hooks.some((hook) => isRecord(hook) && typeof hook.command === 'string' && /\btiers(?:\.js)?\s+stop-hook\b/.test(hook.command))
}

/**
 * The agent step: a Stop hook entry that runs `tiers stop-hook`, added to
 * Claude Code’s project settings (`.claude/settings.json`) beside the hooks
 * already there, in the format Claude Code documents.
 */
export async function planStopHook(cwd: string): Promise<Step> {
  const text = await readIfPresent(cwd, settingsFile)
  const settings = text === null ? {} : parseJsonFile(settingsFile, text)
  if (!isRecord(settings)) throw new FileReadError(settingsFile, 'Unexpected settings that are not an object, expected an object')
  const hooks = settings.hooks ?? {}
  if (!isRecord(hooks)) throw new FileReadError(settingsFile, 'Unexpected `hooks` that is not an object, expected an object of hook events')
  const stop = hooks.Stop ?? []
  if (!Array.isArray(stop)) throw new FileReadError(settingsFile, 'Unexpected `hooks.Stop` that is not a list, expected a list of hook entries')
  if (stop.some(runsStopHook)) return {kind: 'unchanged', file: settingsFile, reason: 'the Stop hook already runs tiers stop-hook'}
  const entry = {hooks: [{type: 'command', command: stopHookCommand}]}
  // The smallest edit: the entry appended to `hooks.Stop`, or the first Stop list, or the first hooks.
  const [at, value]: [Array<string | number>, unknown] =
    settings.hooks === undefined ? [['hooks'], {Stop: [entry]}] : hooks.Stop === undefined ? [['hooks', 'Stop'], [entry]] : [['hooks', 'Stop', -1], entry]
  const after = text === null ? toJson({hooks: {Stop: [entry]}}) : setJson(text, at, value)
  const change = `the agent’s Stop hook runs \`${stopHookCommand}\``
  return {kind: 'write', planned: {file: settingsFile, before: text, after, change}}
}
