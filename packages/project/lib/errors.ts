// The caller’s mistake (an unknown slice, an argument that is no slice id, a folder without contracts): the
// runtime’s class of it, one class, so `instanceof` holds for both names.
export {GateError as UserError} from '@verification-tiers/runtime/errors'

// Defined with the graph’s reader, which throws it; one class, so `instanceof` holds everywhere.
export {ProjectError} from '@verification-tiers/graph/errors'

/** The first line of an error’s message: what a one-line report shows of it. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}
