import { Client } from 'pg';

/** Login of the non-superuser role the service runs as (it owns the application database). */
export interface RoleCredentials {
  user: string;
  password: string;
}

/**
 * Run with the superuser's credentials, which are used for nothing else: creates or updates the
 * application role (LOGIN, no SUPERUSER/CREATEDB/CREATEROLE/REPLICATION), creates the database owned
 * by it, and hands it any object a superuser created earlier (data directories from before this role
 * existed), so that migrations run as the application role.
 */
export async function ensureAppRole(adminUrl: string, app: RoleCredentials, database: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 10000 });
  await admin.connect();
  try {
    const role = admin.escapeIdentifier(app.user);
    const exists = await admin.query('select 1 from pg_roles where rolname = $1', [app.user]);
    if (exists.rowCount === 0) await admin.query(`create role ${role}`);
    await admin.query(
      `alter role ${role} with login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password ${admin.escapeLiteral(app.password)}`,
    );
    const db = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (db.rowCount === 0) await admin.query(`create database ${admin.escapeIdentifier(database)} owner ${role}`);
    else await admin.query(`alter database ${admin.escapeIdentifier(database)} owner to ${role}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const inDb = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 10000 });
  await inDb.connect();
  try {
    const owned = await inDb.query<{ kind: string; name: string }>(
      `select case c.relkind when 'S' then 'sequence' when 'v' then 'view' else 'table' end as kind, c.relname as name
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'S') and pg_get_userbyid(c.relowner) <> $1
          and not (c.relkind = 'S' and exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i')))`,
      [app.user],
    );
    for (const o of owned.rows)
      await inDb.query(
        `alter ${o.kind} public.${inDb.escapeIdentifier(o.name)} owner to ${inDb.escapeIdentifier(app.user)}`,
      );
  } finally {
    await inDb.end();
  }
}
