/** The programs a test command runs, as the workflow `tiers init --ci github` writes reads them to set up what they need. */
import {describe, expect, it} from 'vitest'
import {commandPrograms} from '../lib/workflow.js'

describe('commandPrograms', () => {
  it('takes the first word of each command of a list or pipeline, after variable assignments, once each', () => {
    expect(commandPrograms('go test ./...')).toEqual(['go'])
    expect(commandPrograms('cd api && CI=1 GOFLAGS=-mod=mod go test ./... | tee out.txt')).toEqual(['cd', 'go', 'tee'])
    expect(commandPrograms('npm test; npm run e2e || node scripts/retry.js')).toEqual(['npm', 'node'])
    expect(commandPrograms('  ')).toEqual([])
  })
})
