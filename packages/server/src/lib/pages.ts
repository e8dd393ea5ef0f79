/**
 * Pages of a keyset query: `page(after)` returns rows after the cursor (null: from the start), in
 * order; the last row's cursor is the next page's start. Ends with the first short page.
 */
export async function* pages<R>(
  page: (after: R | null) => Promise<R[]>,
  pageRows: number,
): AsyncGenerator<R[]> {
  let after: R | null = null;
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) yield rows;
    if (rows.length < pageRows) return;
    after = rows[rows.length - 1]!;
  }
}
