/** `%`, `_` and `\` typed by staff are matched literally in a LIKE pattern. */
export function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Offset pages: at least one page, even for no rows. */
export const pageCountOf = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
