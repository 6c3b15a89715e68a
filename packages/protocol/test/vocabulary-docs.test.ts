/**
 * The readmes that list the replies that approve list exactly
 * `approvalReplies`, in its order: a word added to one and not the other
 * would tell a person a reply approves that does not, or the reverse.
 */
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {approvalReplies} from '@verification-tiers/protocol/vocabulary'
import {expect, it} from 'vitest'

const packages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The inline code spans of `readme` between `from` and `to`, both required. */
function codesBetween(readme: string, from: string, to: string): string[] {
  const text = fs.readFileSync(path.join(packages, readme), 'utf8')
  const start = text.indexOf(from)
  const end = text.indexOf(to, start + from.length)
  if (start === -1 || end === -1) throw new Error(`Expected ${readme} to hold “${from}” and then “${to}”`)
  return [...text.slice(start + from.length, end).matchAll(/`([^`]+)`/g)].map((match) => match[1]!)
}

it.for([
  ['protocol/readme.md', 'replies that approve, as compared:', '* `bareRejectionReplies`'],
  ['cli/readme.md', 'Exactly one of these approves, and the slice is complete:', '(so ']
] as const)('%s lists every reply that approves, and no other', ([readme, from, to]) => {
  expect(codesBetween(readme, from, to)).toEqual(approvalReplies)
})
