import { Client } from 'pg';
import PgBoss from 'pg-boss';
import { JOBS_SCHEMA } from '../jobs/jobs-schema';
import { MIGRATIONS_LOCK_KEY } from './data-source';

/** The role and password a `postgres://user:password@host/db` URL signs in with. */
function credentialsOf(url: string): { user: string; password: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      "DATABASE_URL or DATABASE_MIGRATION_URL is not a URL: percent-encode a password's '/', '+' or '=' (openssl rand -hex 32 makes one that needs none)",
    );
  }
  return {
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
}

/**
 * Makes DATABASE_URL's role the API's own, least-privileged role (issue 31 item 6, ASVS 4.0.3
 * 1.4.3 and 14.2: the API connects as a role that owns nothing it does not need; migrations run as
 * the owner, DATABASE_MIGRATION_URL). On the migration connection, after the migrations:
 * - the role exists, may log in with DATABASE_URL's password, and is no superuser and may create
 *   no role, database or replication (so an injected statement cannot `COPY … TO PROGRAM`, read
 *   server files or change another role);
 * - it may read and write every table of `public` and use its sequences, and nothing more there
 *   (no CREATE, DROP or ALTER: those stay with the owner's migrations); of `audit_log` it may only
 *   read and insert (append-only);
 * - it owns pg-boss's schema (`JOBS_SCHEMA`; installed here by the owner when missing), because
 *   pg-boss creates a table per queue and migrates its own schema as it starts.
 * Under the migrations' advisory lock (replicas starting together take turns). Run again at
 * every start: a role, table or queue added since is covered. Nothing is done when both URLs name
 * the same role (`npm start`, the tests).
 * @param migrationUrl DATABASE_MIGRATION_URL (the tables' owner; may create roles)
 * @param appUrl DATABASE_URL (the API's role)
 * @throws pg's error when a statement is refused (e.g. the owner may not create roles)
 */
export async function grantAppRole(migrationUrl: string, appUrl: string): Promise<void> {
  const owner = credentialsOf(migrationUrl).user;
  const app = credentialsOf(appUrl);
  if (!app.user || app.user === owner) return;
  const client = new Client({ connectionString: migrationUrl });
  await client.connect();
  try {
    // Replicas start together: one at a time, as the migrations (two CREATE ROLE would collide).
    await client.query(`SELECT pg_advisory_lock($1)`, [MIGRATIONS_LOCK_KEY]);
    // Names and the password quoted by the driver (`escapeIdentifier`, `escapeLiteral`).
    const role = client.escapeIdentifier(app.user);
    const exists = await client.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [app.user]);
    await client.query(
      `${exists.rowCount ? 'ALTER' : 'CREATE'} ROLE ${role} LOGIN PASSWORD ${client.escapeLiteral(app.password)}
       NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS`,
    );
    await client.query(`SELECT set_config('grove.app_role', $1, false)`, [app.user]);
    await client.query(
      `GRANT CONNECT ON DATABASE ${client.escapeIdentifier(await databaseName(client))} TO ${role}`,
    );
    // PostgreSQL 15 and later give PUBLIC no CREATE on `public` (Grove runs 17): the role gets none.
    await client.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
    await client.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`,
    );
    await client.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
    // The audit log is append-only (docs/decisions/audit-log-append-only.md): the role may read
    // and add entries, never change or delete one; the daily prune deletes through the owner's
    // SECURITY DEFINER function `prune_audit_log`.
    if ((await client.query(`SELECT to_regclass('public.audit_log') AS t`)).rows[0]?.t)
      await client.query(`REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM ${role}`);
    await client.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`,
    );
    // pg-boss installs its schema with CREATE SCHEMA, which needs the database's CREATE: the
    // owner installs it (pg-boss's own plans), and the role is given it.
    const installed = await client.query(`SELECT to_regclass($1) AS version`, [
      `${JOBS_SCHEMA}.version`,
    ]);
    if (!(installed.rows[0] as { version: string | null }).version)
      await client.query(PgBoss.getConstructionPlans(JOBS_SCHEMA));
    // A schema pg-boss made while it ran as the owner: handed over with everything in it.
    await client.query(
      `DO $$
       DECLARE
         app text := current_setting('grove.app_role');
         item record;
       BEGIN
         EXECUTE format('ALTER SCHEMA %I OWNER TO %I', '${JOBS_SCHEMA}', app);
         FOR item IN
           SELECT format('ALTER %s %s OWNER TO %I',
                    CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END,
                    c.oid::regclass, app) AS sql
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = '${JOBS_SCHEMA}' AND c.relkind IN ('r', 'p', 'S', 'v')
             AND pg_get_userbyid(c.relowner) <> app
             -- a sequence owned by a column goes with its table
             AND NOT (c.relkind = 'S' AND EXISTS (
               SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')))
         LOOP EXECUTE item.sql; END LOOP;
         FOR item IN
           SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, app) AS sql
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname = '${JOBS_SCHEMA}' AND pg_get_userbyid(p.proowner) <> app
         LOOP EXECUTE item.sql; END LOOP;
         FOR item IN
           SELECT format('ALTER TYPE %s OWNER TO %I', t.oid::regtype, app) AS sql
           FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
           WHERE n.nspname = '${JOBS_SCHEMA}' AND t.typtype = 'e' AND pg_get_userbyid(t.typowner) <> app
         LOOP EXECUTE item.sql; END LOOP;
       END $$`,
    );
  } finally {
    await client.end();
  }
}

async function databaseName(client: Client): Promise<string> {
  const { rows } = await client.query<{ name: string }>(`SELECT current_database() AS name`);
  return (rows[0] as { name: string }).name;
}
