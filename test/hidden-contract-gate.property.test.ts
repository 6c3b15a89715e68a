/**
 * The gate never passes a contract it did not read. For any project whose
 * `CONTRACTS.md` holds a verify contract with one criterion (in slice S-01)
 * after any prefix of markdown, HTML or unclosed blocks, through the cli's
 * `main`: `tiers verify --all`, then either `tiers checkpoint S-01` lists that
 * criterion for a person, or the Stop hook blocks, naming the contract's
 * line when the contract was not read. Never a silent pass.
 *
 * Each document costs four runs of `tiers`: CI runs 6 (`FUZZ_SCALE` multiplies
 * them; `npm run fuzz` runs 60), with a fixed seed (`FUZZ_SEED`).
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {criterion, hiddenContractDocument} from './fuzz/hidden-contract.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const seed = process.env.FUZZ_SEED === undefined ? 22 : Number(process.env.FUZZ_SEED)
const numRuns = Math.max(1, Math.round(6 * scale))
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** What the gate did with one document. */
interface Verdict {
  /** The checkpoint of S-01 lists the criterion for a person. */
  listed: boolean
  /** The Stop hook blocks the agent. */
  blocked: boolean
  /** The block's reason names `CONTRACTS.md:<line>`. */
  named: boolean
  /** `tiers contracts --json` read the contract with its criterion. */
  read: boolean
}

async function judge(value: string, line: number): Promise<Verdict> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-hidden-gate-')))
  folders.push(folder)
  const dir = path.join(folder, '.greenlight')
  await fs.mkdir(dir)
  await fs.writeFile(path.join(dir, 'CONTRACTS.md'), value)
  await fs.writeFile(path.join(dir, 'config.json'), JSON.stringify({test: {command: 'true'}}))
  await runTiers(folder, ['verify', '--all'])
  const checkpoint = await runTiers(folder, ['checkpoint', 'S-01'])
  const hook = await runTiers(folder, ['stop-hook'], JSON.stringify({session_id: 's', cwd: folder}))
  const contracts = await runTiers(folder, ['contracts', '--json'])
  const answer = JSON.parse(hook.stdout || '{}') as {decision?: string; reason?: string}
  const data = JSON.parse(contracts.stdout || '{"contracts": []}') as {contracts?: Array<{line: number; criteria: Array<{text: string}>}>}
  return {
    listed: checkpoint.code === 0 && checkpoint.stdout.includes(`[ ] ${criterion}`),
    blocked: answer.decision === 'block',
    named: (answer.reason ?? '').includes(`CONTRACTS.md:${line}`),
    read: (data.contracts ?? []).some((contract) => contract.line === line && contract.criteria.some((item) => item.text.includes(criterion)))
  }
}

describe('the gate fails closed on a contract it cannot read', () => {
  it(
    `lists the criterion at the checkpoint, or blocks the stop naming what it did not read (${numRuns} projects)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(hiddenContractDocument('**Slice:** S-01\n'), async ({value, line}) => {
          const verdict = await judge(value, line)
          // A contract it read may be held back by another problem of the file; one it did not read must be named.
          expect(verdict.listed || (verdict.blocked && (verdict.named || verdict.read))).toBe(true)
        }),
        {seed, numRuns}
      )
    },
    60_000 * Math.max(1, scale * 2)
  )
})
