/**
 * Characters XML 1.0 cannot hold, not even as a character reference: C0
 * controls other than tab, line feed and carriage return, U+FFFE, U+FFFF and
 * unpaired surrogates.
 */
const notXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** `\uXXXX` for a character XML cannot hold, so that the report stays well-formed and the character stays visible. */
function visible(character: string): string {
  return '\\u' + character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
}

/**
 * Text as element content: markup escaped; CR, and NEL, U+2028 and U+2029
 * (line ends to XML 1.1 and to some parsers), kept as character references,
 * which no parser turns into LF.
 */
export function escapeText(value: string): string {
  return value
    .replace(notXml, visible)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\r\u0085\u2028\u2029]/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** Text as an attribute value in double quotes: tab, LF and CR as references, which a parser would turn into spaces. */
export function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;')
}

/** `<name a="…" b="…">`, or `<name …/>` without children. */
export function element(name: string, attributes: ReadonlyArray<readonly [string, string | number | undefined]>, children?: string): string {
  const list = attributes.flatMap(([key, value]) => (value === undefined ? [] : [` ${key}="${escapeAttribute(String(value))}"`])).join('')
  return children === undefined ? `<${name}${list}/>` : `<${name}${list}>${children}</${name}>`
}
