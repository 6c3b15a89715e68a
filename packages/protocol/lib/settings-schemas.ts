/**
 * The JSON schemas of a project’s settings files, with what their messages
 * say: the one source of what each file may hold. `generate-protocol`
 * compiles them into the validators `settings` loads
 * (`settings-validators.generated.js`), so no `tiers` process loads ajv.
 */
import {readLimitCeilings} from '@verification-tiers/input'

/** The settings files, by name. */
export type SettingsFile = 'config.json' | 'tiers.json'

/** What an entry of `freshness.exclude` may be, for messages. */
export const freshnessExcludeRule =
  'a path from the folder holding the project folder (`reports/`, `test/out`) or a name at any depth (`coverage`, `*.xml`), with `*`, `**` and `?` as wildcards'

/**
 * Why `text` is no exclusion `tiers` reads, or `null` when it is one: not
 * blank, no `\`, `!`, `[`, `]`, `{` or `}`, no `.` or `..` folder, no empty
 * folder (`a//b`), and not every name a wildcard (`*`, `**`), which would
 * leave out every file.
 */
export function excludePatternProblem(text: string): string | null {
  if (text.trim() === '') return 'blank'
  if (text !== text.trim()) return 'spaces around it'
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'a control character'
  if (text.startsWith('!')) return 'a leading `!`: nothing left out can be taken back in'
  const wildcard = /[\\[\]{}]/.exec(text)
  if (wildcard) return `a \`${wildcard[0]}\`: \`/\` separates folders, and the wildcards are \`*\`, \`**\` and \`?\``
  const body = text.replace(/^\/|\/$/g, '')
  if (body === '') return 'the whole project left out'
  const segments = body.split('/')
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return 'an empty, `.` or `..` folder'
  if (segments.every((segment) => /^\*+$/.test(segment))) return 'every file left out'
  return null
}

/**
 * A JSON schema of a settings file, with what its messages say: `expected`,
 * what a value must be (by the ajv keyword that failed, or for any), and
 * `shown: 'json'` for a value quoted as JSON rather than named by its type.
 */
export interface SettingsSchema {
  type?: string | string[]
  properties?: Record<string, SettingsSchema>
  items?: SettingsSchema
  enum?: readonly unknown[]
  pattern?: string
  minimum?: number
  exclusiveMinimum?: number
  maximum?: number
  if?: SettingsSchema
  then?: SettingsSchema
  excludePattern?: true
  expected?: string | Record<string, string>
  shown?: 'json'
}

const commonProperties: Record<string, SettingsSchema> = {
  test: {
    type: 'object',
    expected: 'an object, such as `{"command": "npm test"}`',
    properties: {
      command: {
        type: 'string',
        pattern: '\\S',
        expected: {
          type: 'the project’s test command as a string',
          pattern: 'the project’s test command, such as `npm test`, or no `command` key to run none'
        }
      }
    }
  },
  workflow: {
    type: 'object',
    expected: 'an object, such as `{"rejection_threshold": 3}`',
    properties: {
      rejection_threshold: {type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, expected: 'a whole number of 1 or more', shown: 'json'},
      visual_checkpoint: {}
    }
  },
  limits: {
    type: 'object',
    expected: 'an object, such as `{"file_mib": 2, "total_mib": 8}`',
    properties: {
      file_mib: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: readLimitCeilings.file_mib,
        expected: `a number of MiB above 0 and at most ${readLimitCeilings.file_mib}`
      },
      total_mib: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: readLimitCeilings.total_mib,
        expected: `a number of MiB above 0 and at most ${readLimitCeilings.total_mib}`
      }
    }
  },
  freshness: {
    type: 'object',
    expected: 'an object, such as `{"exclude": ["reports/"]}`',
    properties: {
      exclude: {
        type: 'array',
        expected: 'a list of what to leave out of the fingerprint, such as `["reports/", "*.xml"]`',
        items: {type: 'string', excludePattern: true, expected: freshnessExcludeRule}
      }
    }
  }
}

const tierDefault = {enum: ['auto', 'verify', 'manual'], expected: '`"auto"` or `"verify"` (`"manual"` reads as `"verify"`)'} as const satisfies SettingsSchema

/** The schema of each settings file. */
export const settingsSchemas: Readonly<Record<SettingsFile, SettingsSchema>> = {
  'config.json': {
    type: 'object',
    expected: 'an object of settings, such as `{"test": {"command": "npm test"}}`',
    properties: commonProperties
  },
  'tiers.json': {
    type: 'object',
    expected: 'an object of settings, such as `{"verification": {"default": "auto"}}`',
    properties: {
      ...commonProperties,
      verification: {
        type: ['object', 'string'],
        expected: 'an object, such as `{"default": "auto"}`',
        if: {type: 'string'},
        then: tierDefault,
        properties: {default: tierDefault}
      },
      tasks: {
        type: 'object',
        expected: 'an object, such as `{"optional": "hold"}`',
        properties: {optional: {enum: ['show', 'hold'], expected: '`"show"` (an open optional task is listed, not holding its slice) or `"hold"`'}}
      }
    }
  }
}
