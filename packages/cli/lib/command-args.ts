import {parseArgs} from 'node:util'
import type {ParseArgsConfig} from 'node:util'
import {optionsMessage, UserError} from './errors.js'

/**
 * Strict `parseArgs` for a command with options of its own (`tiers lint`,
 * `tiers init`): an option it refuses is a `UserError` on one line.
 */
export function parseCommandArgs<const T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>(config)
  } catch (error) {
    throw new UserError(optionsMessage(error))
  }
}
