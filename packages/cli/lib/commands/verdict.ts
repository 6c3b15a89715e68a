import {isHardFail, isPass, parseVerdict, toJobStatus} from '@verification-tiers/runtime/verdict'
import {exitCodes} from '../errors.js'
import type {Command} from './shared.js'

/** The most of a verifier’s reply read from standard input: its verdict is in its first words. */
const verdictInputBytes = 1024 * 1024

export const verdict: Command = async (input) => {
  const fromInput = input.positionals.length === 0 || (input.positionals.length === 1 && input.positionals[0] === '-')
  const text = fromInput ? await input.stdin(verdictInputBytes) : input.positionals.join(' ')
  const parsed = parseVerdict(text)
  const jobStatus = toJobStatus(parsed.verdict)
  return {
    text: `${parsed.verdict} (job: ${jobStatus})${parsed.message ? `: ${parsed.message}` : ''}`,
    data: {verdict: parsed.verdict, message: parsed.message, isPass: isPass(parsed.verdict), isHardFail: isHardFail(parsed.verdict), jobStatus},
    warnings: [],
    exitCode: isPass(parsed.verdict) ? exitCodes.ok : exitCodes.user
  }
}
