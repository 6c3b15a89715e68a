/**
 * The lint cache for files already read (what `lintTexts` lints): each file's
 * messages are kept under the digest of its text and of everything else they
 * depend on (see `openLintCache`), and replayed while those are the same.
 * Loads no engine, parser, rule or reporter, so a run whose files are all
 * unchanged lints nothing and loads none of them.
 */
import path from 'node:path'
import {VFile} from 'vfile'
import {openLintCache} from './cache.js'
import {checkEngineConfigFiles} from './config-files.js'
import type {FileText} from './lint-file.js'
import type {MessageData} from './message-data.js'
import type {VFileMessage} from 'vfile-message'
import {fromMessageData, isKeepable, toMessageData} from './messages.js'
import {textLintSettings} from './settings.js'

/** What one file linted to, as data that crosses to another thread: its messages, and whether all of them can be kept (`isKeepable`). */
export interface LintedText {
  messages: MessageData[]
  keepable: boolean
}

/** What `lintTexts` gave, as data to send to another thread and to store (see `TextLintCache`). */
export function lintedTextsOf(messages: ReadonlyMap<string, readonly VFileMessage[]>): Array<[string, LintedText]> {
  return [...messages].map(([file, list]) => [file, {messages: list.map(toMessageData), keepable: list.every(isKeepable)}])
}

/** The cache opened for one set of files. */
export interface TextLintCache {
  /** The messages of each file whose text and environment are unchanged, by absolute path. */
  replayed: Map<string, MessageData[]>
  /** The files to lint, as given: new, changed, or whose environment changed. */
  toLint: FileText[]
  /** Why the cache file was not read (it is then rebuilt), one line each. */
  warnings: string[]
  /** Keep what the files to lint linted to, by absolute path; a file whose messages cannot all be kept is forgotten, and lints again next time. */
  store(linted: ReadonlyMap<string, LintedText>): Promise<void>
  /** Write the cache atomically, never through a symbolic link; rejects when it cannot be written. */
  save(): Promise<void>
}

/**
 * Open the cache in `cacheFile` for `files`, linted from `cwd` with the
 * settings of `lintTexts`. Only a file with exactly the digests it was
 * linted with is replayed; when a configuration file the engine would open
 * is not a regular file, none is (the lint reports it).
 */
export async function openTextLintCache(cacheFile: string, files: readonly FileText[], cwd = process.cwd()): Promise<TextLintCache> {
  const warnings: string[] = []
  const cache = await openLintCache(cacheFile, textLintSettings(cwd), (text) => warnings.push(text))
  const absolute = (file: FileText) => path.resolve(cwd, file.path)
  const texts = new Map(files.map((file) => [absolute(file), file.text]))
  const replayed = new Map<string, MessageData[]>()
  const toLint: FileText[] = []
  const replayable = await checkEngineConfigFiles([...texts.keys()]).then(
    () => true,
    () => false
  )
  for (const file of files) {
    const found = replayable ? await cache.replay(new VFile({path: absolute(file), cwd, value: file.text})) : undefined
    if (found) replayed.set(absolute(file), found.messages.map(toMessageData))
    else toLint.push(file)
  }
  return {
    replayed,
    toLint,
    warnings,
    async store(linted) {
      const kept: VFile[] = []
      for (const [file, {messages, keepable}] of linted) {
        const text = texts.get(file)
        // Only a file given here: its text is the one linted.
        if (text === undefined) continue
        if (!keepable) {
          cache.forget(file)
          continue
        }
        const vfile = new VFile({path: file, cwd, value: text})
        for (const data of messages) vfile.messages.push(fromMessageData(data, file))
        kept.push(vfile)
      }
      await cache.store(kept)
    },
    save: () => cache.save()
  }
}
