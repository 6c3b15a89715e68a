/**
 * What `tiers lint` adds to remark's conventions, through the cli's `main`
 * in the test process (colour at a terminal through the real bin): the baseline (written, applied, pruned, refused when
 * it is not one), `--max-warnings`, colour only for a terminal, clean files
 * left out unless asked for, and one-line option errors in the `tiers: …`
 * form.
 */
import {existsSync} from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {linkedProject, runProcess, tiersBin} from './helpers/tiers-bin.js'
import {runTiersHere as runTiers} from './helpers/tiers-here.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** Nothing in the environment forces colours in or out, unless a test says so. */
const env = {FORCE_COLOR: undefined, NO_COLOR: undefined}

const lint = (cwd: string, args: readonly string[], extra: Record<string, string | undefined> = {}) => runTiers(cwd, ['lint', ...args], '', {...env, ...extra})

/** A verify contract without criteria or steps: one warning. */
const bare = (id: string, name: string) => `### ${id}: ${name}\n\n**Verification:** verify\n`
const bareReason = (id: string, name: string) =>
  `Unexpected verify contract ${id} ${name} without acceptance criteria or steps, expected at least one criterion or step`

const clean = '### C-09: Receipt\n\n**Verification:** auto\n'
const project = (files: Record<string, string>) =>
  linkedProject(folders, 'verification-tiers-lint-baseline-', {'.remarkrc.json': '{"plugins": ["remark-preset-lint-verification-tiers"]}\n', ...files})

const readJson = async (file: string): Promise<unknown> => JSON.parse(await fs.readFile(file, 'utf8'))

describe('tiers lint: the baseline', {timeout: 120_000}, () => {
  it.concurrent('--update-baseline accepts today’s warnings, never an error; a run then fails only on what is beyond them', async () => {
    const cwd = await project({
      'docs/a.md': [bare('C-01', 'Login'), bare('C-02', 'Logout')].join('\n'),
      'docs/b.md': `${bare('C-03', 'Search')}\n### C-04: Sort\n\n**Verification:** often\n**Steps:**\n- Sort the list by name\n`,
      'docs/clean.md': clean
    })
    const write = await lint(cwd, ['--update-baseline', '--frail', 'docs'])
    // The error is still reported, and fails the run.
    expect(write.code).toBe(1)
    expect(write.stderr).toMatch(
      /^docs\/b\.md\n7:19-7:24 +error +Unexpected verification tier `often` on C-04 Sort, expected `auto` or `verify` +verification-tier +remark-lint\n\n✖ 1 error\nwrote tiers-lint-baseline\.json: it accepts 3 warnings in 2 files\n$/
    )
    expect(await readJson(path.join(cwd, 'tiers-lint-baseline.json'))).toEqual({
      'docs/a.md': {'remark-lint:verify-tier-criteria': {[bareReason('C-01', 'Login')]: 1, [bareReason('C-02', 'Logout')]: 1}},
      'docs/b.md': {'remark-lint:verify-tier-criteria': {[bareReason('C-03', 'Search')]: 1}}
    })
    await fs.writeFile(path.join(cwd, 'docs/b.md'), bare('C-03', 'Search'))
    expect(await lint(cwd, ['--frail', 'docs'])).toEqual({code: 0, stdout: '', stderr: '3 warnings accepted by the baseline tiers-lint-baseline.json\n'})
    // The same warning once more: the one beyond the count is reported, and fails --frail.
    await fs.writeFile(path.join(cwd, 'docs/b.md'), `# Moved down\n\n${bare('C-03', 'Search')}\n${bare('C-03', 'Search')}`)
    const more = await lint(cwd, ['--frail', '--no-color', 'docs'])
    expect(more.code).toBe(1)
    expect(more.stderr).toBe(
      `docs/b.md\n9:1-9:25 warning ${bareReason('C-03', 'Search')} verify-tier-criteria remark-lint\n\n⚠ 1 warning\n3 warnings accepted by the baseline tiers-lint-baseline.json\n`
    )
    // Without --frail a warning beyond the baseline is reported, and passes.
    expect((await lint(cwd, ['docs'])).code).toBe(0)
  })

  it.concurrent('warnings that no longer occur: one line, with the command that prunes them; it prunes them, keeping files not linted', async () => {
    const cwd = await project({'a.md': bare('C-01', 'Login'), 'notes/b.md': bare('C-02', 'Logout'), 'notes/c.md': bare('C-03', 'Search')})
    expect((await lint(cwd, ['--update-baseline'])).code).toBe(0)
    await fs.writeFile(path.join(cwd, 'notes/b.md'), clean)
    await fs.rm(path.join(cwd, 'notes/c.md'))
    expect(await lint(cwd, ['notes'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '2 warnings in the baseline tiers-lint-baseline.json no longer occur: `tiers lint --update-baseline notes` prunes them\n'
    })
    expect(await lint(cwd, ['--update-baseline', 'notes'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'wrote tiers-lint-baseline.json: it accepts 1 warning in 1 file\n'
    })
    expect(await readJson(path.join(cwd, 'tiers-lint-baseline.json'))).toEqual({
      'a.md': {'remark-lint:verify-tier-criteria': {[bareReason('C-01', 'Login')]: 1}}
    })
    expect(await lint(cwd, [])).toEqual({code: 0, stdout: '', stderr: '1 warning accepted by the baseline tiers-lint-baseline.json\n'})
  })

  it.concurrent('--baseline <file> reads and writes that file, its paths from its own folder; --no-baseline reports every warning', async () => {
    const cwd = await project({'docs/a.md': bare('C-01', 'Login')})
    expect(await lint(cwd, ['--update-baseline', '--baseline', 'ci/accepted.json', 'docs'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'wrote ci/accepted.json: it accepts 1 warning in 1 file\n'
    })
    expect(await readJson(path.join(cwd, 'ci/accepted.json'))).toEqual({
      '../docs/a.md': {'remark-lint:verify-tier-criteria': {[bareReason('C-01', 'Login')]: 1}}
    })
    expect(existsSync(path.join(cwd, 'tiers-lint-baseline.json'))).toBe(false)
    expect(await lint(cwd, ['--frail', '--baseline', 'ci/accepted.json', 'docs'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '1 warning accepted by the baseline ci/accepted.json\n'
    })
    // The default baseline does not exist: nothing is accepted. One named that does not exist is an error.
    expect((await lint(cwd, ['--frail', 'docs'])).code).toBe(1)
    expect(await lint(cwd, ['--baseline', 'ci/acepted.json', 'docs'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tiers: ci/acepted.json: Unexpected missing baseline, expected the file `--baseline` names (`--update-baseline` writes it)\n'
    })
    // From another folder, the same file and paths.
    expect(await runTiers(path.join(cwd, 'docs'), ['lint', '--frail', '--baseline', '../ci/accepted.json', '.'], '', env)).toEqual({
      code: 0,
      stdout: '',
      stderr: '1 warning accepted by the baseline ../ci/accepted.json\n'
    })
    await fs.copyFile(path.join(cwd, 'ci/accepted.json'), path.join(cwd, 'tiers-lint-baseline.json'))
    expect((await lint(cwd, ['--frail', '--no-baseline', 'docs'])).code).toBe(1)
    expect(await lint(cwd, ['--no-baseline', '--update-baseline'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'tiers: Unexpected `--no-baseline` with `--update-baseline`, expected one of them\n'
    })
  })

  it.concurrent('a baseline that is not one stops the run: one line naming the file and the place, exit 2, nothing fixed or written', async () => {
    const wrongCase = '### C-01: Login\n\n**Verification:** Verify\n**Steps:**\n- Log in\n'
    const cases: Array<[string, string]> = [
      [
        '{\n  "a.md": {\n    "remark-lint:verify-tier-criteria": 2\n  }\n}\n',
        'tiers: tiers-lint-baseline.json:3:41: Unexpected number, expected an object of message reasons for `remark-lint:verify-tier-criteria` in `a.md`\n'
      ],
      [
        '{"a.md": ',
        'tiers: tiers-lint-baseline.json:1:10: Unexpected text that is not JSON (ValueExpected), expected the JSON `tiers lint --update-baseline` writes\n'
      ]
    ]
    for (const [text, message] of cases) {
      const cwd = await project({'a.md': wrongCase, 'tiers-lint-baseline.json': text})
      expect(await lint(cwd, ['--fix'])).toEqual({code: 2, stdout: '', stderr: message})
      expect(await lint(cwd, ['--update-baseline'])).toEqual({code: 2, stdout: '', stderr: message})
      expect(await fs.readFile(path.join(cwd, 'a.md'), 'utf8')).toBe(wrongCase)
      expect(await fs.readFile(path.join(cwd, 'tiers-lint-baseline.json'), 'utf8')).toBe(text)
    }
  })
})

describe('tiers lint: --max-warnings', {timeout: 120_000}, () => {
  it.concurrent('exits 1 when the warnings left after the baseline exceed n, saying so in one line', async () => {
    const cwd = await project({'a.md': [bare('C-01', 'Login'), bare('C-02', 'Logout'), bare('C-03', 'Search')].join('\n')})
    const [two, three] = await Promise.all([lint(cwd, ['--max-warnings', '2', '--no-color']), lint(cwd, ['--max-warnings', '3'])])
    expect(two.code).toBe(1)
    expect(two.stderr.endsWith('⚠ 3 warnings\ntiers: Unexpected 3 warnings, expected at most 2 (--max-warnings)\n')).toBe(true)
    expect(three.code).toBe(0)
    await fs.writeFile(
      path.join(cwd, 'tiers-lint-baseline.json'),
      JSON.stringify({'a.md': {'remark-lint:verify-tier-criteria': {[bareReason('C-01', 'Login')]: 1, [bareReason('C-02', 'Logout')]: 1}}})
    )
    expect((await lint(cwd, ['--max-warnings', '0'])).code).toBe(1)
    expect((await lint(cwd, ['--max-warnings', '1'])).code).toBe(0)
    for (const bad of ['-1', 'two', '1.5', '']) {
      expect(await lint(cwd, [`--max-warnings=${bad}`])).toEqual({
        code: 1,
        stdout: '',
        stderr: `tiers: Unexpected \`--max-warnings ${bad}\`, expected a whole number of 0 or more\n`
      })
    }
  })
})

describe('tiers lint: what it prints', {timeout: 120_000}, () => {
  it.concurrent('clean files are left out unless --list-clean asks for them; -q is accepted', async () => {
    const cwd = await project({'a.md': bare('C-01', 'Login'), 'clean.md': clean})
    const report = `a.md\n3:1-3:25 warning ${bareReason('C-01', 'Login')} verify-tier-criteria remark-lint\n\n⚠ 1 warning\n`
    const [plain, quiet, listed] = await Promise.all([lint(cwd, []), lint(cwd, ['-q']), lint(cwd, ['--list-clean'])])
    expect(plain).toEqual({code: 0, stdout: '', stderr: report})
    expect(quiet).toEqual(plain)
    expect(listed).toEqual({code: 0, stdout: '', stderr: report.replace('\n\n⚠', '\n\nclean.md: no issues found\n\n⚠')})
    expect(await lint(cwd, ['clean.md'])).toEqual({code: 0, stdout: '', stderr: ''})
  })

  it.concurrent('colour: none in a pipe or with NO_COLOR; FORCE_COLOR forces it; --color and --no-color decide over both', async () => {
    const cwd = await project({'a.md': bare('C-01', 'Login')})
    const cases: Array<[string[], Record<string, string | undefined>, boolean]> = [
      [[], {}, false],
      [[], {FORCE_COLOR: '1'}, true],
      [[], {FORCE_COLOR: '0'}, false],
      [[], {FORCE_COLOR: ''}, false],
      [[], {NO_COLOR: '1', FORCE_COLOR: '1'}, true],
      [['--color'], {NO_COLOR: '1'}, true],
      [['--no-color'], {FORCE_COLOR: '1'}, false],
      [['--no-color', '--color'], {}, true]
    ]
    const runs = await Promise.all(cases.map(([args, extra]) => lint(cwd, args, extra)))
    runs.forEach((run, index) => {
      const [args, extra, colour] = cases[index]!
      expect(run.stderr.includes('\u001B['), JSON.stringify({args, extra})).toBe(colour)
    })
  })

  // The bin asks whether stderr is a terminal; what the environment changes there is the test below.
  it.runIf(existsSync('/usr/bin/script')).concurrent('colour at a terminal', async () => {
    const cwd = await project({'a.md': bare('C-01', 'Login')})
    const colour = await runProcess('/usr/bin/script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(tiersBin)} lint a.md`, '/dev/null'], {
      cwd,
      env
    })
    expect(colour.stdout).toContain('\u001B[33mwarning\u001B[39m')
  })

  // The settings the bin's run gets (`parseLintArgs`, told stderr is a terminal); that `color` in them is the report's colours is the pipe's cases above.
  it.concurrent('at a terminal, none with NO_COLOR set; an empty NO_COLOR is not set', async () => {
    const {parseLintArgs} = await import('../packages/cli/dist/lib/commands/lint.js')
    const atTerminal = (extra: Record<string, string>) => parseLintArgs(['a.md'], process.cwd(), extra, {stdout: false, stderr: true})?.color
    expect([atTerminal({}), atTerminal({NO_COLOR: '1'}), atTerminal({NO_COLOR: ''}), atTerminal({NO_COLOR: '1', FORCE_COLOR: '1'})]).toEqual([
      true,
      false,
      true,
      true
    ])
    // Not at a terminal, none unless asked for.
    expect(parseLintArgs(['a.md'], process.cwd(), {}, {stdout: true, stderr: false})?.color).toBe(false)
  })

  it.concurrent('an unknown option: one line in the tiers form, with the option meant when one is close', async () => {
    const cwd = await project({})
    const [near, swapped, far, value] = await Promise.all([
      lint(cwd, ['--fral']),
      lint(cwd, ['--max-warnigns', '3']),
      lint(cwd, ['--zzz']),
      lint(cwd, ['--frail=yes'])
    ])
    expect(near).toEqual({code: 1, stdout: '', stderr: 'tiers: Unexpected option `--fral`, expected `--frail` (see tiers lint --help)\n'})
    expect(swapped).toEqual({code: 1, stdout: '', stderr: 'tiers: Unexpected option `--max-warnigns`, expected `--max-warnings` (see tiers lint --help)\n'})
    expect(far.stderr).toMatch(/^tiers: Unexpected option `--zzz`, expected one of --frail, [^\n]+ \(see tiers lint --help\)\n$/)
    expect(value).toEqual({code: 1, stdout: '', stderr: 'tiers: Unexpected value for `--frail`, expected `--frail` alone (see tiers lint --help)\n'})
  })
})
