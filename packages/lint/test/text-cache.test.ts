/**
 * `openTextLintCache`: the lint cache of files already read. A file is
 * replayed only with the messages it was stored with; one whose messages
 * cannot all be kept is forgotten and linted again; when a configuration
 * file the engine would open is not a regular file, nothing is replayed.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {lintTexts} from '@verification-tiers/lint'
import {lintedTextsOf, openTextLintCache} from '@verification-tiers/lint/text-cache'
import {afterAll, describe, expect, it} from 'vitest'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function scratch() {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-text-cache-')))
  folders.push(folder)
  const file = path.join(folder, 'CONTRACTS.md')
  const text = '### C-1: Widget\n\n**Verification:** soon\n'
  await fs.writeFile(file, text)
  return {folder, cacheFile: path.join(folder, 'tiers', '.verify-lint-cache'), files: [{path: file, text}]}
}

describe('openTextLintCache', () => {
  it('replays what was stored, exactly; forgets a file whose messages cannot be kept', async () => {
    const {cacheFile, files} = await scratch()
    const first = await openTextLintCache(cacheFile, files)
    expect(first.replayed.size).toBe(0)
    expect(first.toLint).toEqual(files)
    const linted = new Map(lintedTextsOf(await lintTexts(first.toLint)))
    const messages = linted.get(files[0]!.path)!.messages
    expect(messages.map((message) => message.ruleId)).toContain('verification-tier')
    await first.store(linted)
    await first.save()
    const second = await openTextLintCache(cacheFile, files)
    expect(second.toLint).toEqual([])
    expect(second.replayed).toEqual(new Map([[files[0]!.path, messages]]))
    // Say its messages could not all be kept this time: it is forgotten.
    await second.store(new Map([[files[0]!.path, {messages, keepable: false}]]))
    await second.save()
    const third = await openTextLintCache(cacheFile, files)
    expect(third.toLint).toEqual(files)
    // Another text of the same file is not replayed either.
    await third.store(linted)
    await third.save()
    expect((await openTextLintCache(cacheFile, [{...files[0]!, text: `${files[0]!.text}\n`}])).replayed.size).toBe(0)
  })

  it('replays nothing while an ignore file the engine opens is not a regular file', async () => {
    const {folder, cacheFile, files} = await scratch()
    const first = await openTextLintCache(cacheFile, files)
    await first.store(new Map(lintedTextsOf(await lintTexts(files))))
    await first.save()
    await fs.mkdir(path.join(folder, '.remarkignore'))
    expect((await openTextLintCache(cacheFile, files)).toLint).toEqual(files)
    await fs.rmdir(path.join(folder, '.remarkignore'))
    expect((await openTextLintCache(cacheFile, files)).toLint).toEqual([])
  })

  it('says why a cache it cannot read is rebuilt', async () => {
    const {cacheFile, files} = await scratch()
    await fs.mkdir(path.dirname(cacheFile))
    await fs.writeFile(cacheFile, 'not json')
    const cache = await openTextLintCache(cacheFile, files)
    expect(cache.warnings).toEqual([`tiers: warning: ignored the lint cache ${cacheFile} (not JSON); rebuilding it`])
    expect(cache.toLint).toEqual(files)
  })
})
