import type {Step} from './files.js'
import isRecord from 'is-plain-obj'
import {FileReadError} from '@verification-tiers/input/read'
import {agentStopCommand, runsStopHook} from './agents.js'
import type {HookAgent} from './agents.js'
import {parseJsonFile, readIfPresent, setJson, toJson} from './files.js'

/**
 * The agent step: a hook entry running `tiers stop-hook` on the agent's
 * stop event, added to its project hooks file (`agent.file`) beside the
 * hooks already there, in the format the agent documents; the file's
 * header (`"version": 1`) set when it is missing. One that already runs
 * `tiers stop-hook` is left as it is.
 */
export async function planStopHook(cwd: string, agent: HookAgent): Promise<Step> {
  const file = agent.file
  const {event} = agent
  const text = await readIfPresent(cwd, file)
  const settings = text === null ? {} : parseJsonFile(file, text)
  if (!isRecord(settings)) throw new FileReadError(file, 'Unexpected settings that are not an object, expected an object')
  const hooks = settings.hooks ?? {}
  if (!isRecord(hooks)) throw new FileReadError(file, 'Unexpected `hooks` that is not an object, expected an object of hook events')
  const list = hooks[event] ?? []
  if (!Array.isArray(list)) throw new FileReadError(file, `Unexpected \`hooks.${event}\` that is not a list, expected a list of hook entries`)
  if (list.some(runsStopHook)) return {kind: 'unchanged', file, reason: `the ${agent.name} ${event} hook already runs tiers stop-hook`}
  const command = agentStopCommand(agent)
  const entry = agent.entry(command)
  const change = `${agent.name}’s ${event} hook runs \`${command}\``
  if (text === null) return {kind: 'write', planned: {file, before: null, after: toJson({...agent.header, hooks: {[event]: [entry]}}), change}}
  // The smallest edit: the entry appended to the event's list, or the first list, or the first hooks; the header where it is missing.
  const [at, value]: [Array<string | number>, unknown] =
    settings.hooks === undefined ? [['hooks'], {[event]: [entry]}] : hooks[event] === undefined ? [['hooks', event], [entry]] : [['hooks', event, -1], entry]
  let after = setJson(text, at, value)
  for (const [key, wanted] of Object.entries(agent.header)) {
    if (settings[key] === undefined) after = setJson(after, [key], wanted)
  }
  return {kind: 'write', planned: {file, before: text, after, change}}
}
