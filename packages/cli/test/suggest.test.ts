/**
 * “Did you mean”: a mistyped command or option suggests the nearest known
 * names within a bound, and an unrelated word suggests nothing.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {commands, separateCommands} from '../lib/commands/index.js'
import {editDistance} from '@verification-tiers/contracts/edit-distance'
import {suggest, suggestionBound} from '../lib/suggest.js'

const names = [...Object.keys(commands), ...separateCommands.map((command) => command.name), 'help']

/** One edit of `name` at `at`: a deletion, an insertion, a substitution or a swap of two neighbours. */
const oneEdit = (name: string) =>
  fc
    .record({
      at: fc.nat({max: name.length - 1}),
      kind: fc.constantFrom('delete', 'insert', 'replace', 'swap'),
      letter: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz-')
    })
    .map(({at, kind, letter}) => {
      if (kind === 'delete') return name.slice(0, at) + name.slice(at + 1)
      if (kind === 'insert') return name.slice(0, at) + letter + name.slice(at)
      if (kind === 'replace') return name.slice(0, at) + letter + name.slice(at + 1)
      const next = Math.min(at + 1, name.length - 1)
      return name.slice(0, at) + (name[next] as string) + (name[at] as string) + name.slice(next + 1)
    })

describe('editDistance', () => {
  it.for([
    ['status', 'status', 0],
    ['stauts', 'status', 1],
    ['sttus', 'status', 1],
    ['statuss', 'status', 1],
    ['chekpoint', 'checkpoint', 1],
    ['verfiy', 'verify', 1],
    ['ca', 'abc', 3],
    ['', 'lint', 4],
    ['xyzzy', 'status', 6]
  ] as const)('%s to %s is %i', ([a, b, distance]) => {
    expect(editDistance(a, b)).toBe(distance)
    expect(editDistance(b, a)).toBe(distance)
  })

  it('stops past its limit with limit + 1', () => {
    expect(editDistance('xyzzyxyzzy', 'status', 2)).toBe(3)
    expect(editDistance('s', 'stop-hook', 1)).toBe(2)
  })
})

describe('suggest', () => {
  it('suggests the nearest command, any case, and all those at the least distance', () => {
    expect(suggest('stauts', names)).toEqual(['status'])
    expect(suggest('STATSU', names)).toEqual(['status'])
    expect(suggest('stophook', names)).toEqual(['stop-hook'])
    expect(suggest('repond', names)).toEqual(['respond'])
    // One letter from each of two commands.
    expect(suggest('lnit', names)).toEqual(['lint', 'init'])
    expect(suggest('xyzzy', names)).toEqual([])
    expect(suggest('deploy', names)).toEqual([])
  })

  it('property: any command with one edit suggests it', () => {
    const edited = fc.constantFrom(...names).chain((name) => oneEdit(name).map((typed) => ({name, typed})))
    fc.assert(
      fc.property(edited, ({name, typed}) => {
        fc.pre(!names.includes(typed))
        expect(suggest(typed, names)).toContain(name)
      }),
      {numRuns: 500}
    )
  })

  it('property: a string further than the bound from every command suggests nothing; anything suggested is within its bound', () => {
    fc.assert(
      fc.property(fc.string({unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz-'), maxLength: 14}), (typed) => {
        const suggested = suggest(typed, names)
        for (const name of suggested) expect(editDistance(typed, name)).toBeLessThanOrEqual(suggestionBound(name))
        const far = names.every((name) => editDistance(typed, name) > suggestionBound(name))
        if (far) expect(suggested).toEqual([])
        else expect(suggested.length).toBeGreaterThan(0)
      }),
      {numRuns: 1000}
    )
  })

  it('property: a long string of letters no command has suggests nothing', () => {
    fc.assert(
      fc.property(fc.string({unit: fc.constantFrom(...'bfgjmqwxz'), minLength: 4, maxLength: 20}), (typed) => {
        expect(suggest(typed, names)).toEqual([])
      })
    )
  })
})
