/** Items shown in a message: the first `shown` (five unless told), and how many more. */
export function some(items: readonly string[], shown = 5): string {
  return items.length > shown ? `${items.slice(0, shown).join(', ')}, and ${items.length - shown} more` : items.join(', ')
}
