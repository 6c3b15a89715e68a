import {escalationOptions} from '@verification-tiers/protocol'
import {contracts} from './contracts.js'
import {stopHook, verdict, verify} from './evidence.js'
import {checkpoint, escalate, report, respond, route, status} from './gate.js'
import type {Command} from './shared.js'

export {defaultDir} from './shared.js'
export type {CommandInput, CommandResult} from './shared.js'

/** The commands by name, without a prototype: `tiers constructor` finds no command. */
export const commands: Readonly<Record<string, Command>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, Command>, {
    checkpoint,
    respond,
    route,
    escalate,
    status,
    report,
    contracts,
    verify,
    'stop-hook': stopHook,
    verdict
  })
)

/** The command named `name`, if there is one (an own entry, never `Object.prototype`’s). */
export function findCommand(name: string): Command | undefined {
  return Object.hasOwn(commands, name) ? commands[name] : undefined
}

/** For help text. */
export const escalationChoices = escalationOptions.map((option) => `${option.choice} ${option.title}`).join(', ')
