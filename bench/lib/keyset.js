// The keyset check: page 5,000 of GET /groups?pagination=keyset at N groups vs page 1.
// Groups are bulk-added straight into the service's `namespaces` table with generate_series (top-level
// public groups `bulk-<i>`, traversal_ids set as the service does), then ANALYZE. Re-runs only add
// what is missing. The cursor of page 5,000 is found by following the service's own Link headers.
const { Client } = require('pg');

async function addGroups(dbUrl, target, log) {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const [{ n }] = (await db.query(`select count(*)::int as n from namespaces where kind = 'group'`)).rows;
    const [{ k }] = (
      await db.query(`select count(*)::int as k from namespaces where kind = 'group' and path like 'bulk-%'`)
    ).rows;
    const need = target - n;
    if (need > 0) {
      log(`keyset: adding ${need} groups (bulk-${k + 1} … bulk-${k + need}) with generate_series…`);
      const started = Date.now();
      await db.query(
        `insert into namespaces (name, path, full_path, full_name, kind, visibility_level, description)
         select 'Bulk ' || i, 'bulk-' || i, 'bulk-' || i, 'Bulk ' || i, 'group', 20, 'bulk group ' || i
           from generate_series($1::int, $2::int) i on conflict do nothing`,
        [k + 1, k + need],
      );
      await db.query(
        `update namespaces set traversal_ids = array[id] where traversal_ids = '{}' and parent_id is null and kind = 'group'`,
      );
      await db.query('analyze namespaces');
      log(`keyset: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    return (await db.query(`select count(*)::int as n from namespaces where kind = 'group'`)).rows[0].n;
  } finally {
    await db.end();
  }
}

function nextUrl(link) {
  const m = /<([^>]+)>;\s*rel="next"/.exec(link || '');
  return m ? m[1] : null;
}

/** Walks to the first row of page `page` (of `perPage`) in steps of 100, then of perPage. */
async function cursorOfPage(base, token, page, perPage) {
  const headers = { 'PRIVATE-TOKEN': token };
  const targetRows = (page - 1) * perPage;
  let url = `${base}/api/v4/groups?pagination=keyset&order_by=name&per_page=100`;
  let seen = 0;
  while (seen < targetRows) {
    const step = targetRows - seen >= 100 ? 100 : perPage;
    url = url.replace(/per_page=\d+/, `per_page=${step}`);
    const res = await fetch(url, { headers });
    const rows = await res.json();
    seen += rows.length;
    url = nextUrl(res.headers.get('link'));
    if (!url) throw new Error(`keyset walk ended after ${seen} rows`);
  }
  return new URL(url.replace(/per_page=\d+/, `per_page=${perPage}`)).searchParams.get('cursor');
}

module.exports = { addGroups, cursorOfPage };
