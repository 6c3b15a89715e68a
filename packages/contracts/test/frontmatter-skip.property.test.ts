/**
 * Frontmatter is a contract exactly when its top-level keys name a contract
 * field (or a `C-NN` id): whatever the YAML holds and however its keys are
 * spelled, quoted or nested. Other frontmatter (slice state, agent
 * definitions) is no contract.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import {read} from './helpers.js'

// Keys that make frontmatter a contract, as people may spell them (case and separators aside).
const contractKey = fc.constantFrom(
  'contract',
  'Contract',
  'verification',
  'VERIFICATION',
  'acceptance_criteria',
  'acceptance-criteria',
  'Acceptance Criteria',
  'acceptanceCriteria',
  'acceptance__criteria',
  'steps',
  'Steps'
)
// Keys that do not: other fields, near misses, slice state.
const otherKey = fc.constantFrom('id', 'status', 'step', 'milestone', 'started', 'title', 'owner', 'tags', 'criteria_notes', 'verify', 'stepsTaken', 'name')
const scalar = fc.oneof(
  fc.constantFrom('auto', 'verify', 'complete', 'S-3', '2026-02-23T10:00:00Z', 'a: b', '#x', ''),
  fc.string({maxLength: 12}),
  fc.integer()
)
const value: fc.Arbitrary<unknown> = fc.oneof(scalar, fc.array(scalar, {maxLength: 3}), fc.dictionary(fc.oneof(otherKey, contractKey), scalar, {maxKeys: 2}))

describe('frontmatter that is a contract', () => {
  it('reads a contract exactly when a top-level key names a contract field or the id is C-NN', () => {
    fc.assert(
      fc.property(
        fc.dictionary(otherKey, value, {maxKeys: 4}),
        fc.option(contractKey, {nil: null}),
        fc.option(fc.constantFrom('C-7', 'c12', 'S-3', 'AUTH-3'), {nil: null}),
        fc.boolean(),
        (others, contractField, id, flow) => {
          const data: Record<string, unknown> = {...others}
          delete data.id
          if (id !== null) data.id = id
          if (contractField !== null) data[contractField] = 'verify'
          const yaml = stringify(data, {collectionStyle: flow ? 'flow' : 'block'})
          const contracts = read(`---\n${yaml}---\n\n# Notes\n`)
          const isContract = contractField !== null || (id !== null && /^C-?\d+$/i.test(id))
          expect(contracts.length > 0).toBe(isContract)
        }
      ),
      {numRuns: 300}
    )
  })
})
