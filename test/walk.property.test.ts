/**
 * Walking `contracts/` fails closed, through the cli's `main` in this
 * process, standard input a pipe. For any tree under
 * `.greenlight/contracts/` mixing contract files, other files, folders,
 * folders that cannot be listed (`chmod 000`), names that are not UTF-8,
 * symbolic links (to files and folders outside the project, inside it, and
 * back up to a folder above) and nesting deeper than the walk goes, and now
 * and then a contract file whose bytes are not UTF-8:
 *
 * - every contract file is read, exactly when nothing on its way is refused,
 *   and otherwise the first thing refused on its way (a link, a name, a
 *   folder that cannot be listed, one too deep) is named in the problems,
 *   with nothing else named: `tiers contracts --json`;
 * - a file whose bytes are not UTF-8, on the way of the walk, is an error
 *   naming it, at its line and column;
 * - `tiers verify --all` fails and the Stop hook blocks while anything is
 *   unread, and both pass when all is read (every contract is `auto`).
 *
 * A folder of mode 000 is one root lists all the same: this file loads
 * `helpers/as-user.mjs` first, which holds the modes as for a user when the
 * tests run as root (CI does), and changes nothing otherwise. (The bin's
 * own walk of such a folder is in `fail-closed-reading.test.ts`.)
 *
 * Each tree costs three runs: CI runs 20, with a fixed seed
 * (`FUZZ_SEED`); `FUZZ_SCALE` multiplies them (`npm run fuzz`).
 */
import './helpers/as-user.mjs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {runTiersPiped as tiers} from './helpers/tiers-here.js'

const scale = Number(process.env.FUZZ_SCALE ?? 1)
const seed = process.env.FUZZ_SEED === undefined ? 38 : Number(process.env.FUZZ_SEED)
const numRuns = Math.max(1, Math.round(20 * scale))

const folders: string[] = []
/** Folders of mode 000, the innermost first. */
const locked: string[] = []

afterAll(async () => {
  // Outer folders first, so that a user can reach the inner ones.
  for (const folder of locked.reverse()) await fs.chmod(folder, 0o755).catch(() => {})
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** An entry of the tree under `contracts/`. */
type Node =
  | {kind: 'contract' | 'latin1' | 'notes' | 'raw-file' | 'raw-notes' | 'link-notes' | 'link-loop'}
  | {kind: 'link-file'; inside: boolean}
  | {kind: 'folder' | 'locked' | 'raw-folder' | 'link-folder'; children: Node[]}
  | {kind: 'chain'; depth: number; children: Node[]}

const leaf = (kind: string) => fc.constant({kind} as Node)

const tree = fc.letrec<{node: Node; children: Node[]}>((tie) => ({
  node: fc.oneof(
    {depthSize: 'small', withCrossShrink: true},
    {arbitrary: leaf('contract'), weight: 6},
    {arbitrary: fc.oneof(leaf('notes'), leaf('raw-file'), leaf('raw-notes'), leaf('link-notes'), leaf('link-loop')), weight: 3},
    {arbitrary: fc.boolean().map((inside): Node => ({kind: 'link-file', inside})), weight: 1},
    {arbitrary: leaf('latin1'), weight: 1},
    {
      arbitrary: fc.record({kind: fc.constantFrom('folder', 'locked', 'raw-folder', 'link-folder'), children: tie('children')}) as fc.Arbitrary<Node>,
      weight: 4
    },
    {arbitrary: fc.record({kind: fc.constant('chain'), depth: fc.integer({min: 1, max: 10}), children: tie('children')}) as fc.Arbitrary<Node>, weight: 2}
  ),
  children: fc.array(tie('node'), {maxLength: 3})
}))
/** The entries of `contracts/`: one at least, so that most trees hold something to refuse. */
const contractsTree = fc.array(tree.node, {minLength: 1, maxLength: 5})

/** What the walk must name: the first thing refused on a contract's way, as `kind path`. */
type Refusal = string

/** A contract placed in the tree: its id, and what refuses it (`null`: nothing, so it is read). */
interface Placed {
  id: string
  refusedBy: Refusal | null
}

interface Model {
  contracts: Placed[]
  /** Everything the walk must name, `kind path`. */
  refusals: Set<Refusal>
  /** Files not in UTF-8 on the walk's way, as shown. */
  latin1: string[]
  count: number
}

const contractText = (id: string) => `### ${id}: Part\n\n**Slice:** S-01\n**Verification:** auto\n`
const byte = Buffer.from([0xff])

/**
 * Write `nodes` into `real` (a folder, as bytes), shown as `shown`, at
 * `depth` folders below `contracts/` (0: `contracts/` itself); `refused` is
 * the first refusal on the way, if any.
 */
async function build(
  nodes: readonly Node[],
  real: Buffer,
  shown: string,
  depth: number,
  refused: Refusal | null,
  model: Model,
  temporary: string
): Promise<void> {
  const at = (name: string | Buffer) => Buffer.concat([real, Buffer.from(path.sep), Buffer.from(name)])
  const refuse = (refusal: Refusal): Refusal => {
    if (refused === null) model.refusals.add(refusal)
    return refused ?? refusal
  }
  const contract = (refusedBy: Refusal | null): string => {
    const id = `C-${++model.count}`
    model.contracts.push({id, refusedBy})
    return id
  }
  for (const [index, node] of nodes.entries()) {
    switch (node.kind) {
      case 'contract': {
        const id = contract(refused)
        await fs.writeFile(at(`${id}.md`), contractText(id))
        break
      }
      case 'latin1': {
        const id = contract(refused)
        if (refused === null) model.latin1.push(`${shown}/${id}.md`)
        await fs.writeFile(
          at(`${id}.md`),
          Buffer.concat([Buffer.from(`### ${id}: Caf`), Buffer.from([0xe9]), Buffer.from('\n\n**Slice:** S-01\n**Verification:** auto\n')])
        )
        break
      }
      case 'notes':
        await fs.writeFile(at(`notes${index}.txt`), 'notes\n')
        break
      case 'raw-notes':
        await fs.writeFile(at(Buffer.concat([Buffer.from(`notes${index}`), byte, Buffer.from('.txt')])), 'notes\n')
        break
      case 'raw-file': {
        const id = contract(refuse(`name ${shown}/r${index}\\xFF.md`))
        await fs.writeFile(at(Buffer.concat([Buffer.from(`r${index}`), byte, Buffer.from('.md')])), contractText(id))
        break
      }
      case 'link-notes':
        await fs.writeFile(path.join(temporary, 'outside', `notes${model.count}-${index}.txt`), 'notes\n')
        await fs.symlink(path.join(temporary, 'outside', `notes${model.count}-${index}.txt`), at(`l${index}.txt`))
        break
      case 'link-loop':
        // Back to the folder it is in: followed, the walk would never end.
        refuse(`link ${shown}/l${index}`)
        await fs.symlink('.', at(`l${index}`))
        break
      case 'link-file': {
        // The file it points to: outside the project, or in it but out of contracts/.
        const id = contract(refuse(`link ${shown}/l${index}.md`))
        const target = node.inside ? path.join(temporary, 'project', 'elsewhere', `${id}.md`) : path.join(temporary, 'outside', `${id}.md`)
        await fs.writeFile(target, contractText(id))
        await fs.symlink(target, at(`l${index}.md`))
        break
      }
      case 'link-folder': {
        const target = path.join(temporary, 'outside', `t${model.count}-${depth}-${index}`)
        await fs.mkdir(target)
        const by = refuse(`link ${shown}/l${index}`)
        await build(node.children, Buffer.from(target), `${shown}/l${index}`, depth + 1, by, model, temporary)
        await fs.symlink(target, at(`l${index}`))
        break
      }
      case 'raw-folder': {
        const name = Buffer.concat([Buffer.from(`r${index}`), byte])
        await fs.mkdir(at(name))
        const by = refuse(`name ${shown}/r${index}\\xFF`)
        await build(node.children, at(name), `${shown}/r${index}\\xFF`, depth + 1, by, model, temporary)
        break
      }
      case 'folder':
      case 'locked': {
        const name = `${node.kind === 'locked' ? 'k' : 'f'}${index}`
        await fs.mkdir(at(name))
        // A folder deeper than 8 is named before it is listed; one of mode 000, when it is listed.
        const by = depth + 1 > 8 ? refuse(`deep ${shown}/${name}`) : node.kind === 'locked' ? refuse(`locked ${shown}/${name}`) : refused
        await build(node.children, at(name), `${shown}/${name}`, depth + 1, by, model, temporary)
        if (node.kind === 'locked') {
          await fs.chmod(at(name), 0o000)
          locked.push(at(name).toString())
        }
        break
      }
      case 'chain': {
        let folder = real
        let folderShown = shown
        let by = refused
        let level = depth
        for (let step = 1; step <= node.depth; step++) {
          const name = `c${index}-${step}`
          folder = Buffer.concat([folder, Buffer.from(path.sep), Buffer.from(name)])
          folderShown = `${folderShown}/${name}`
          level++
          await fs.mkdir(folder)
          if (level > 8 && by === null) {
            by = `deep ${folderShown}`
            model.refusals.add(by)
          }
        }
        await build(node.children, folder, folderShown, level, by, model, temporary)
        break
      }
    }
  }
}

/** The kind of a problem, as the model names it, from its message. */
function kindOf(message: string): string {
  if (message.startsWith('Unexpected symbolic link')) return 'link'
  if (message.startsWith('Unexpected folder that cannot be listed')) return 'locked'
  if (message.includes(' name with byte 0x')) return 'name'
  if (message.startsWith('Unexpected folder nested more than 8 deep')) return 'deep'
  return `other (${message})`
}

interface Problem {
  file: string
  line: number | null
  message: string
}

describe('walking contracts/ fails closed', () => {
  it(
    `reads every contract file or names what refused it, and never passes while one is unread (${numRuns} trees)`,
    async () => {
      const seen = {refused: 0, passed: 0, latin1: 0}
      const kinds = new Set<string>()
      await fc.assert(
        fc.asyncProperty(contractsTree, async (nodes) => {
          const temporary = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tiers-walk-property-')))
          folders.push(temporary)
          const project = path.join(temporary, 'project')
          const greenlight = path.join(project, '.greenlight')
          await fs.mkdir(path.join(greenlight, 'contracts'), {recursive: true})
          await fs.mkdir(path.join(project, 'elsewhere'))
          await fs.mkdir(path.join(temporary, 'outside'))
          await fs.writeFile(path.join(greenlight, 'config.json'), '{"test": {"command": "true"}}\n')
          // One contract always read, so that a tree of nothing is a project that passes.
          await fs.writeFile(path.join(greenlight, 'CONTRACTS.md'), contractText('C-0'))
          const model: Model = {contracts: [{id: 'C-0', refusedBy: null}], refusals: new Set(), latin1: [], count: 0}
          await build(nodes, Buffer.from(path.join(greenlight, 'contracts')), '.greenlight/contracts', 0, null, model, temporary)

          const listed = await tiers(project, ['contracts', '--json'])
          const verify = await tiers(project, ['verify', '--all'])
          const hook = await tiers(project, ['stop-hook'], JSON.stringify({session_id: 'walk', cwd: project}))
          const answer = JSON.parse(hook.stdout) as {decision?: string; reason?: string}
          const context = `\ncontracts: ${listed.stdout}${listed.stderr}\nverify: ${verify.code} ${verify.stdout}${verify.stderr}\nhook: ${hook.stdout}`

          if (model.latin1.length > 0) {
            // The walk reaches a file that is not UTF-8: an error naming it, at its place; nothing passes.
            seen.latin1++
            const error = (JSON.parse(listed.stdout) as {error?: {message: string}}).error
            expect(listed.code, context).toBe(2)
            expect(
              model.latin1.some((file) => error?.message.startsWith(`${file}:1:`) && error.message.includes(': Unexpected byte 0xE9, which is not UTF-8')),
              context
            ).toBe(true)
            expect(verify.code, context).toBe(2)
            expect(answer.decision, context).toBe('block')
            return
          }
          expect(listed.code, context).toBe(0)
          const data = JSON.parse(listed.stdout) as {contracts: Array<{id: string}>; problems: Problem[]}
          // Read exactly when nothing refused it on its way, each once.
          expect(data.contracts.map((contract) => contract.id).sort(), context).toEqual(
            model.contracts
              .filter((placed) => placed.refusedBy === null)
              .map((placed) => placed.id)
              .sort()
          )
          // Named: the first refusal on the way of each contract not read, and nothing else.
          const named = data.problems
            .filter((problem) => problem.file.startsWith('.greenlight/contracts/'))
            .map((problem) => `${kindOf(problem.message)} ${problem.file}`)
          expect(named.sort(), context).toEqual([...model.refusals].sort())
          for (const placed of model.contracts) if (placed.refusedBy !== null) expect(named, context).toContain(placed.refusedBy)
          expect(
            data.problems.every((problem) => problem.line === null && /^Unexpected .+, expected /.test(problem.message)),
            context
          ).toBe(true)

          for (const refusal of model.refusals) kinds.add(refusal.split(' ')[0]!)
          if (model.refusals.size > 0) {
            seen.refused++
            expect(verify.code, context).toBe(1)
            expect(answer.decision, context).toBe('block')
            for (const refusal of model.refusals)
              expect(answer.reason, context).toContain(path.join(project, refusal.slice(refusal.indexOf(' ') + 1)) + ': Unexpected ')
          } else {
            seen.passed++
            expect({verify: verify.code, hook: answer}, context).toEqual({verify: 0, hook: {}})
          }
        }),
        {seed, numRuns}
      )
      // Every outcome and every refusal was seen: trees that never refuse, or never pass, would prove little.
      if (numRuns >= 20)
        expect({outcomes: Object.values(seen).every((count) => count > 0), kinds: [...kinds].sort()}, JSON.stringify(seen)).toEqual({
          outcomes: true,
          kinds: ['deep', 'link', 'locked', 'name']
        })
    },
    60_000 * Math.max(1, scale * 2)
  )
})
