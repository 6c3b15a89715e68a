import {createHmac, randomBytes, timingSafeEqual} from 'node:crypto'
import {link, mkdir, rename, stat, unlink, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {readInputFile} from './read-input.js'

/**
 * A secret of the user, kept outside every project, for keyed digests of
 * what `tiers` derives from a project (the contracts cache): whoever can
 * edit the project cannot forge a digest, so cannot make a derived file say
 * something its sources do not.
 */
export type UserKey = {ok: true; file: string; key: Buffer} | {ok: false; file: string; problem: string}

/**
 * Where the key lives: `$XDG_CACHE_HOME/verification-tiers/key`, else the
 * platform’s cache folder (`~/.cache`, `~/Library/Caches`, `%LOCALAPPDATA%`).
 */
export function userKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  let base: string
  if (xdg && path.isAbsolute(xdg)) base = xdg
  else if (process.platform === 'win32' && env.LOCALAPPDATA) base = env.LOCALAPPDATA
  else if (process.platform === 'darwin') base = path.join(os.homedir(), 'Library', 'Caches')
  else base = path.join(os.homedir(), '.cache')
  return path.join(base, 'verification-tiers', 'key')
}

const loaded = new Map<string, Promise<UserKey>>()

/**
 * The user’s key, read once per process, or made on first use: 32 random
 * bytes, written as hex to a file only its owner can read (mode 600). A key
 * that cannot be made or read, or that others could read or change, is not
 * used: `ok` is false and `problem` says why.
 */
export function userKey(file: string = userKeyPath()): Promise<UserKey> {
  let key = loaded.get(file)
  if (!key) {
    key = loadOrCreate(file)
    loaded.set(file, key)
  }
  return key
}

/** HMAC-SHA256 of `text` under `key`, as hex. */
export function keyedDigest(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex')
}

/** Whether two digests are the same, in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

async function loadOrCreate(file: string): Promise<UserKey> {
  try {
    const existing = await readKey(file)
    if (existing) return existing
    await mkdir(path.dirname(file), {recursive: true, mode: 0o700})
    // Made whole under another name, then linked into place: a process that
    // runs at the same time never reads half a key, and the first one made wins.
    const made = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`
    await writeFile(made, `${randomBytes(32).toString('hex')}\n`, {mode: 0o600, flag: 'wx'})
    try {
      await link(made, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rename(made, file)
    } finally {
      await unlink(made).catch(() => {})
    }
    return (await readKey(file)) ?? {ok: false, file, problem: 'it vanished as it was made'}
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return {ok: false, file, problem: `it cannot be made or read (${code ?? (error as Error).message})`}
  }
}

/** The key in `file`, `null` when there is none. */
async function readKey(file: string): Promise<UserKey | null> {
  const text = await readInputFile(file, {limit: 1024})
  if (text === undefined) return null
  if (!/^[\da-f]{64}\n?$/.test(text)) return {ok: false, file, problem: 'it is not 64 hexadecimal digits (remove it to have a new one made)'}
  if (process.platform !== 'win32') {
    const info = await stat(file)
    if ((info.mode & 0o077) !== 0 || info.uid !== process.getuid?.()) {
      return {ok: false, file, problem: 'others may read or change it (it must be yours, mode 600)'}
    }
  }
  return {ok: true, file, key: Buffer.from(text.trim(), 'hex')}
}
