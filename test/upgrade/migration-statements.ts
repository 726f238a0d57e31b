import type { ContractStep } from '../../src/core/db/contract-step';

/**
 * What makes a migration contracting (docs/operations.md#upgrades-and-rollbacks): a statement after
 * which the previous release's code may fail (its columns or tables gone or renamed, its inserts
 * refused, its values emptied). Read from the SQL a migration sends; statements on a table the same
 * migration creates are new, and so never contracting.
 */
const RULES: [RegExp, string][] = [
  [/\bdrop\s+table\b/, 'drops a table'],
  [
    /\balter\s+table\b[^;]*?\bdrop\s+(?!constraint\b|index\b|not\s+null\b|expression\b|identity\b|default\b)(column\b|[a-z_"]+)/,
    'drops a column',
  ],
  [/\brename\b/, 'renames a table, column or constraint'],
  [/\bset\s+not\s+null\b/, 'sets NOT NULL on an existing column'],
  [/\balter\s+column\s+\S+\s+(set\s+data\s+)?type\b/, "changes a column's type"],
  [/\bdrop\s+default\b/, "drops a column's default (older inserts may rely on it)"],
  [
    /\badd\s+(column\s+)?(if\s+not\s+exists\s+)?(?!constraint\b|primary\b|unique\b|foreign\b|check\b)[a-z_"]+\s[^,;]*?\bnot\s+null\b(?![^,;]*\bdefault\b)/,
    'adds a NOT NULL column without a default (older inserts leave it out)',
  ],
  [/\badd\s+constraint\b/, 'adds a constraint older writes may violate'],
  [/\bcreate\s+unique\s+index\b/, 'adds a unique index older writes may violate'],
  [/\bdrop\s+(function|trigger|view|materialized\s+view|type|sequence|schema)\b/, 'drops a database object'],
  [/^truncate\b/, 'empties a table'],
  [
    /\bupdate\s+[a-z_."]+(\s+[a-z_]+)?\s+set\b[^;]*?=\s*(null|''|'\{\}'|array\[\])\s*(,|where\b|;|$)/,
    'empties a column',
  ],
];

const normalise = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

const CREATED = /\bcreate\s+(or\s+replace\s+)?(table|function|trigger|view)\s+(if\s+not\s+exists\s+)?([a-z_."]+)/g;
const TARGETS = [
  /\bdrop\s+(function|trigger|view)\s+(if\s+exists\s+)?([a-z_."]+)/,
  /\balter\s+table\s+(if\s+exists\s+)?(only\s+)?([a-z_."]+)/,
  /\bupdate\s+([a-z_."]+)/,
  /\bindex\b[^;]*?\bon\s+([a-z_."]+)/,
  /\btruncate\s+(table\s+)?([a-z_."]+)/,
];

function targetOf(stmt: string): string | undefined {
  for (const re of TARGETS) {
    const m = re.exec(stmt);
    if (m) return m[m.length - 1].replace(/"/g, '');
  }
  return undefined;
}

export interface Contracting {
  statement: string;
  why: string;
}

/** The contracting statements among a migration's SQL (each addSql or execute text, in order). */
export function contractingStatements(sqls: string[]): Contracting[] {
  const texts = sqls.map(normalise);
  // Created (or re-created: a trigger dropped and created again is replaced) by this same migration.
  const created = new Set(texts.flatMap((t) => [...t.matchAll(CREATED)].map((m) => m[4].replace(/"/g, ''))));
  const found: Contracting[] = [];
  for (const text of texts)
    for (const stmt of text.split(/;\s*/).filter(Boolean)) {
      const target = targetOf(stmt);
      if (target && created.has(target)) continue;
      for (const [re, why] of RULES)
        if (re.test(stmt)) {
          found.push({ statement: stmt.length > 160 ? `${stmt.slice(0, 157)}...` : stmt, why });
          break;
        }
    }
  return found;
}

/** The SQL a migration's `up` sends, without a database: `execute` answers no rows (backfills end at once). */
export async function sqlOf(cls: new (...args: never[]) => { up(): Promise<void> | void }): Promise<string[]> {
  const sent: string[] = [];
  const driver = {
    execute: async (sql: unknown) => {
      sent.push(String(sql));
      return [];
    },
  };
  const Ctor = cls as unknown as new (
    driver: unknown,
    config: unknown,
  ) => {
    up(): Promise<void> | void;
    getQueries(): unknown[];
  };
  const m = new Ctor(driver, {});
  await m.up();
  return [...sent, ...m.getQueries().map(String)];
}

const parts = (v: string) => v.split(/[.+-]/).slice(0, 3).map(Number);
/** Semver order of x.y.z (pre-release and build parts ignored). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/**
 * Why a migration added since `previous` breaks the policy (empty: it does not): contracting
 * statements without a `contract`, or a contract whose expand step or last use is not old enough.
 */
export function policyProblems(
  name: string,
  contracting: Contracting[],
  contract: ContractStep | undefined,
  previous: { version: string; migrations: Set<string> },
): string[] {
  if (contracting.length === 0) return [];
  const list = contracting.map((c) => `  ${c.why}: ${c.statement}`).join('\n');
  if (!contract)
    return [
      `${name} contracts the schema without a contract step (static contract: ContractStep):\n${list}\n` +
        `expand first, contract one release later (docs/operations.md#upgrades-and-rollbacks)`,
    ];
  const problems: string[] = [];
  if (!previous.migrations.has(contract.expandedBy))
    problems.push(
      `${name} is the contract step of ${contract.expandedBy}, which the previous release ${previous.version} does not have: contract it in a later release`,
    );
  if (compareVersions(contract.unusedSince, previous.version) > 0)
    problems.push(
      `${name} removes what release ${contract.unusedSince} stopped using, but the previous release ${previous.version} still runs beside it: contract it in a later release`,
    );
  return problems;
}
