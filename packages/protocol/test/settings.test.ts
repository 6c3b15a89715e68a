/**
 * A project's settings files, checked against their JSON schemas by the
 * validators ajv compiled from them at build time: each schema is a valid
 * JSON schema, the compiled validators find what ajv finds compiling the
 * schemas now, and every fault is one line naming the file, the line and
 * column of the value, and the key.
 */
import os from 'node:os'
import path from 'node:path'
import {settingsAjv} from '@verification-tiers/generate-protocol'
import {FileReadError} from '@verification-tiers/input'
import {parseProjectConfig, readProjectConfig, settingsKeys, settingsSchemas} from '@verification-tiers/protocol/settings'
import type {SettingsFile} from '@verification-tiers/protocol/settings'
import {settingsValidators} from '@verification-tiers/protocol/settings-validators'
import {describe, expect, it} from 'vitest'

describe('settingsSchemas', () => {
  it.each(Object.keys(settingsSchemas) as SettingsFile[])('%s: a valid schema under strict mode, its own keywords being annotations', (file) => {
    const ajv = settingsAjv()
    expect(ajv.validateSchema(settingsSchemas[file]), JSON.stringify(ajv.errors)).toBe(true)
    expect(() => ajv.compile(settingsSchemas[file])).not.toThrow()
  })

  it.each(Object.keys(settingsSchemas) as SettingsFile[])('%s: the compiled validator finds the fault ajv finds compiling the schema now', (file) => {
    const compiled = settingsAjv().compile(settingsSchemas[file])
    const values: unknown[] = [
      {},
      [],
      'auto',
      {test: {command: ' '}, workflow: {rejection_threshold: 0}},
      {workflow: {rejection_threshold: 2.5}, freshness: {exclude: ['a//b']}},
      {freshness: {exclude: ['ok/', 5]}},
      {freshness: {exclude: ['**']}, verification: 'never'},
      {freshness: {exclude: ['reports/', '*.xml']}, verification: {default: 'verify'}, tasks: {optional: 'hold'}, test: {command: 'npm test'}},
      {verification: ['auto'], tasks: 'hold'},
      {tasks: {optional: true}}
    ]
    const fault = (errors: Array<{instancePath: string; keyword: string; data?: unknown}> | null | undefined) =>
      errors?.map(({instancePath, keyword, data}) => ({instancePath, keyword, data}))
    for (const value of values) {
      const generated = settingsValidators[file]
      expect(generated(value), JSON.stringify(value)).toBe(compiled(value))
      expect(fault(generated.errors), JSON.stringify(value)).toEqual(fault(compiled.errors))
    }
  })

  it('names the keys whose near misses are faults, by the object they are in', () => {
    const common = {
      '': ['test', 'workflow', 'limits', 'freshness'],
      test: ['command'],
      workflow: ['rejection_threshold', 'visual_checkpoint'],
      limits: ['file_mib', 'total_mib'],
      freshness: ['exclude']
    }
    expect(settingsKeys('config.json')).toEqual(common)
    expect(settingsKeys('tiers.json')).toEqual({...common, '': [...common[''], 'verification', 'tasks'], verification: ['default'], tasks: ['optional']})
  })
})

describe('parseProjectConfig', () => {
  it.each([
    [
      'config.json',
      '{"test": {"command": " "}}',
      '1:22: Unexpected empty `test.command`, expected the project’s test command, such as `npm test`, or no `command` key to run none'
    ],
    ['config.json', '{"workflow": {"rejection_threshold": 2.5}}', '1:38: Unexpected `workflow.rejection_threshold` 2.5, expected a whole number of 1 or more'],
    [
      'config.json',
      '{"freshness": {"exclude": ["ok/", 5]}}',
      '1:35: Unexpected number `5` in `freshness.exclude`, expected a path from the folder holding the project folder (`reports/`, `test/out`) or a name at any depth (`coverage`, `*.xml`), with `*`, `**` and `?` as wildcards'
    ],
    [
      'config.json',
      '{"freshness": {"exclude": ["a//b"]}}',
      '1:28: Unexpected `"a//b"` (an empty, `.` or `..` folder) in `freshness.exclude`, expected a path from the folder holding the project folder (`reports/`, `test/out`) or a name at any depth (`coverage`, `*.xml`), with `*`, `**` and `?` as wildcards'
    ],
    ['config.json', '{"a/b": 1, "test": {"commnad": "x"}}', '1:32: Unexpected key `test.commnad`, expected `test.command` (did you mean `command`?)'],
    [
      'tiers.json',
      '{\n  "verification": {"default": "sometimes"}\n}',
      '2:31: Unexpected `verification.default` string `"sometimes"`, expected `"auto"` or `"verify"` (`"manual"` reads as `"verify"`)'
    ],
    [
      'tiers.json',
      '{"verification": "never"}',
      '1:18: Unexpected `verification` string `"never"`, expected `"auto"` or `"verify"` (`"manual"` reads as `"verify"`)'
    ],
    ['tiers.json', '{"verification": ["auto"]}', '1:18: Unexpected `verification` list, expected an object, such as `{"default": "auto"}`'],
    [
      'tiers.json',
      '{"tasks": {"optional": true}}',
      '1:24: Unexpected `tasks.optional` `true`, expected `"show"` (an open optional task is listed, not holding its slice) or `"hold"`'
    ],
    ['tiers.json', '{"tasks": "hold"}', '1:11: Unexpected `tasks` string `"hold"`, expected an object, such as `{"optional": "hold"}`'],
    ['tiers.json', '[]', '1:1: Unexpected list, expected an object of settings, such as `{"verification": {"default": "auto"}}`']
  ] as Array<[SettingsFile, string, string]>)('%s %j is one line naming the place and the key', (file, text, message) => {
    expect(() => parseProjectConfig(file, text, file)).toThrow(new FileReadError(file, message.slice(message.indexOf(': ') + 2), placeOf(message)))
  })

  it('reads what the schema allows, and leaves other tools’ keys to them', () => {
    expect(
      parseProjectConfig(
        'tiers.json',
        '{"verification": "manual", "tasks": {"optional": "hold"}, "workflow": {"rejection_threshold": 5}, "mode": "yolo"}',
        'tiers.json'
      )
    ).toEqual({
      config: {verification: 'manual', tasks: {optional: 'hold'}, workflow: {rejection_threshold: 5}, mode: 'yolo'},
      threshold: 5
    })
    // `verification` and `tasks` are the tool folders' settings: Greenlight's `config.json` leaves them to other tools.
    expect(parseProjectConfig('config.json', '{"verification": 5, "tasks": []}').threshold).toBe(3)
  })

  it('reads no file as no settings, with the protocol’s threshold', async () => {
    expect(await readProjectConfig(path.join(os.tmpdir(), 'verification-tiers-no-such-folder', 'config.json'))).toEqual({config: {}, threshold: 3})
  })
})

/** The `line:column` a message starts with. */
function placeOf(message: string): {line: number; column: number} {
  const [line, column] = message.slice(0, message.indexOf(': ')).split(':').map(Number)
  return {line: line!, column: column!}
}
