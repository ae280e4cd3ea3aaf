import { and, inArray, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, type AnyPgColumn, type PgTable, type SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from './client';
import type { Scope, Scoped } from './scope/scope';
import { scopeWhere } from './scope/scope-where';
import { SCOPED_THROUGH_PARENT, TENANT_TABLES, tenantColumns, type TenantTable } from './scope/tenant-tables';

/** What the data layer is opened on: the AppContext, or a transaction's handle inside server/db. */
export interface DbOwner {
  readonly db: Db | DbTx;
}

/** A transaction's handle, as drizzle's `transaction` gives it. */
export type DbTx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The tables a TenantDb reads and writes: those a tenant owns, and those owned through a parent row. */
export type ChildTable = (typeof SCOPED_THROUGH_PARENT)[keyof typeof SCOPED_THROUGH_PARENT]['table'];
export type ScopedTable = TenantTable | ChildTable;
export type Row<T extends PgTable> = T['$inferSelect'];
export type NewRow<T extends PgTable> = T['$inferInsert'];

export interface ListOptions {
  /** Extra conditions, and-ed with the scope. */
  where?: SQL;
  orderBy?: SQL | AnyPgColumn | Array<SQL | AnyPgColumn>;
  limit?: number;
  offset?: number;
}

export interface InsertOptions<T extends PgTable> {
  /** `true`: a row refused by a unique constraint is skipped; `{ target, set }`: it is updated instead (upsert). */
  onConflict?: true | { target: AnyPgColumn | AnyPgColumn[]; set: UpdateSet<T> };
}

/** An update's values: a column's value, or SQL (`sql\`now()\``). */
export type UpdateSet<T extends PgTable> = { [K in keyof NewRow<T>]?: NewRow<T>[K] | SQL };

function selectFrom<F extends SelectedFields, T extends ScopedTable>(db: Db, fields: F, table: T) {
  // @ts-expect-error drizzle's from() checks a generic table lazily (a conditional type TS cannot resolve here); T is a table.
  return db.select(fields).from(table).$dynamic();
}
function selectAllFrom<T extends ScopedTable>(db: Db, table: T) {
  // @ts-expect-error as in selectFrom
  return db.select().from(table).$dynamic();
}
/** A query builder over one scoped table, its scope already in the where: add joins, groupBy, orderBy, limit. */
export type ScopedSelect<F extends SelectedFields, T extends ScopedTable> = Omit<ReturnType<typeof selectFrom<F, T>>, 'where'>;
export type ScopedSelectAll<T extends ScopedTable> = Omit<ReturnType<typeof selectAllFrom<T>>, 'where'>;

/**
 * One tenant's view of the database. Every read, update and delete of a table is narrowed to the scope here,
 * and every insert is stamped with it (or refused when it names another tenant), so a caller cannot forget
 * the scope. Tables owned through a parent (a session's transcript, a delivery's attempts) are narrowed to the
 * rows whose parent the scope sees. Another tenant's row is simply not found.
 */
export interface TenantDb extends Scoped {
  /** `forUpdate`: lock the row for the rest of the transaction (a read-merge-write). */
  find<T extends ScopedTable>(table: T, where?: SQL, opts?: { forUpdate?: boolean }): Promise<Row<T> | undefined>;
  list<T extends ScopedTable>(table: T, opts?: ListOptions): Promise<Array<Row<T>>>;
  count(table: ScopedTable, where?: SQL): Promise<number>;
  insert<T extends ScopedTable>(table: T, values: NewRow<T> | Array<NewRow<T>>, opts?: InsertOptions<T>): Promise<Array<Row<T>>>;
  update<T extends ScopedTable>(table: T, set: UpdateSet<T>, where?: SQL): Promise<Array<Row<T>>>;
  delete<T extends ScopedTable>(table: T, where?: SQL): Promise<Array<Row<T>>>;
  /**
   * For joins and aggregates: `select(table, fields, where)` is drizzle's `select(fields).from(table)` with the
   * scope and `where` applied; chain joins, groupBy, orderBy and limit. Calling `.where` on it throws (it would
   * replace the scope). Joined tables should be reached from the scoped one (a parent's children).
   */
  select<T extends ScopedTable>(table: T, fields?: undefined, where?: SQL): ScopedSelectAll<T>;
  select<T extends ScopedTable, F extends SelectedFields>(table: T, fields: F, where?: SQL): ScopedSelect<F, T>;
  /** The scope's condition on a table, for a subquery or an `exists` in a where passed to this TenantDb. */
  condition(table: ScopedTable): SQL | undefined;
  /** One transaction, in the same scope. */
  transaction<R>(fn: (tx: TenantDb) => Promise<R>): Promise<R>;
  /** The same connection (or transaction) without the scope, for one statement that must see every tenant. */
  system(reason: string): Db;
}

const PARENT_LINKS = new Map<PgTable, { child: AnyPgColumn; parent: TenantTable; parentKey: AnyPgColumn }>(
  Object.values(SCOPED_THROUGH_PARENT).map((e) => {
    const fk = getTableConfig(e.table).foreignKeys.find((f) => f.reference().foreignTable === e.parent);
    if (!fk) throw new Error(`${getTableConfig(e.table).name} has no foreign key to its parent`);
    const ref = fk.reference();
    return [e.table, { child: ref.columns[0]!, parent: e.parent, parentKey: ref.foreignColumns[0]! }];
  }),
);
const TENANT = new Set<PgTable>(Object.values(TENANT_TABLES).map((e) => e.table));

function scopeCondition(db: Db, scope: Scope, table: ScopedTable): SQL | undefined {
  if (TENANT.has(table)) return scopeWhere(scope, table as TenantTable);
  const link = PARENT_LINKS.get(table);
  if (!link) throw new Error('table is not registered in TENANT_TABLES or SCOPED_THROUGH_PARENT; its rows cannot be scoped');
  const parentScope = scopeWhere(scope, link.parent);
  if (!parentScope) return undefined;
  return inArray(link.child, db.select({ key: link.parentKey }).from(link.parent).where(parentScope));
}

class ScopeViolation extends Error {
  constructor(what: string) {
    super(`refused by the tenant scope: ${what}`);
  }
}

/** An insert's or update's tenant columns: stamped with the scope when absent, refused when another tenant's. */
function stampTenant(scope: Scope, table: ScopedTable, values: Record<string, unknown>, fill: boolean): Record<string, unknown> {
  if (scope.kind === 'all' || !TENANT.has(table)) return values;
  const { partner, provider } = tenantColumns(table as TenantTable);
  const out = { ...values };
  const keyOf = (col: AnyPgColumn) => Object.entries(table).find(([, c]) => c === col)![0];
  if (partner) {
    const key = keyOf(partner);
    if (out[key] === undefined && fill) out[key] = scope.partnerId;
    else if (out[key] !== undefined && out[key] !== scope.partnerId) throw new ScopeViolation(`${key} names another partner`);
  } else if (scope.kind === 'partner') {
    throw new ScopeViolation('a partner scope does not own per-provider rows');
  }
  if (provider && scope.kind === 'provider') {
    const key = keyOf(provider);
    if (out[key] === undefined && fill) out[key] = scope.providerId;
    else if (out[key] !== undefined && out[key] !== scope.providerId) throw new ScopeViolation(`${key} names another provider`);
  }
  return out;
}

/** A child row may be inserted only under a parent the scope sees. */
async function checkParents(db: Db, scope: Scope, table: ScopedTable, rows: Array<Record<string, unknown>>): Promise<void> {
  const link = PARENT_LINKS.get(table);
  if (!link || scope.kind === 'all') return;
  const key = Object.entries(table).find(([, c]) => c === link.child)![0];
  const parents = [...new Set(rows.map((r) => r[key]))];
  if (parents.some((p) => p === undefined || p === null)) throw new ScopeViolation(`${key} is required`);
  const seen = await db
    .select({ key: link.parentKey })
    .from(link.parent)
    .where(and(inArray(link.parentKey, parents), scopeWhere(scope, link.parent)));
  if (seen.length !== parents.length) throw new ScopeViolation(`${key} names a row outside the scope`);
}

function orderList(o: ListOptions['orderBy']): Array<SQL | AnyPgColumn> {
  return o === undefined ? [] : Array.isArray(o) ? o : [o];
}

/**
 * The scoped data layer for a caller (`auth`, a principal) or a job (`sessionScope(session)`). Opened on an
 * open TenantDb (`tenantDb(tx, auth)` inside `transaction`), it reads and writes on that handle's connection, so
 * a helper that takes an AppContext also runs inside the caller's transaction.
 */
export function tenantDb(owner: DbOwner | TenantDb, scoped: Scoped | Scope): TenantDb {
  const scope: Scope = 'scope' in scoped ? scoped.scope : scoped;
  const db = 'system' in owner ? owner.system('the connection of an open TenantDb, scoped again just here') : (owner.db as Db);
  return makeTenantDb(db, scope);
}

function makeTenantDb(db: Db, scope: Scope): TenantDb {
  const cond = (table: ScopedTable, where?: SQL) => and(scopeCondition(db, scope, table), where);
  // Drizzle's builders are typed per table; the generic table here is checked by the signatures above.
  const any = db as any;
  return {
    scope,
    async find(table, where, opts = {}) {
      let q = any.select().from(table).where(cond(table, where)).$dynamic();
      if (opts.forUpdate) q = q.for('update');
      const rows = await q.limit(1);
      return rows[0];
    },
    list(table, opts = {}) {
      let q = any.select().from(table).where(cond(table, opts.where)).$dynamic();
      const order = orderList(opts.orderBy);
      if (order.length) q = q.orderBy(...order);
      if (opts.limit !== undefined) q = q.limit(opts.limit);
      if (opts.offset !== undefined) q = q.offset(opts.offset);
      return q;
    },
    async count(table, where) {
      const [row] = await any.select({ n: sql<number>`count(*)::int` }).from(table).where(cond(table, where));
      return Number(row.n);
    },
    async insert(table, values, opts = {}) {
      const rows = (Array.isArray(values) ? values : [values]).map((v) => stampTenant(scope, table, v as Record<string, unknown>, true));
      if (rows.length === 0) return [];
      await checkParents(db, scope, table, rows);
      let q = any.insert(table).values(rows);
      if (opts.onConflict === true) q = q.onConflictDoNothing();
      else if (opts.onConflict) {
        const set = stampTenant(scope, table, opts.onConflict.set as Record<string, unknown>, false);
        q = q.onConflictDoUpdate({ target: opts.onConflict.target, set, setWhere: scopeCondition(db, scope, table) });
      }
      return q.returning();
    },
    async update(table, set, where) {
      const checked = stampTenant(scope, table, set as Record<string, unknown>, false);
      return await any.update(table).set(checked).where(cond(table, where)).returning();
    },
    delete(table, where) {
      return any.delete(table).where(cond(table, where)).returning();
    },
    select(table: ScopedTable, fields?: SelectedFields, where?: SQL) {
      const q = (fields ? any.select(fields) : any.select()).from(table).where(cond(table, where)).$dynamic();
      q.where = () => {
        throw new Error('a scoped select already has its where (the scope and the conditions given to select)');
      };
      return q;
    },
    condition(table) {
      return scopeCondition(db, scope, table);
    },
    transaction(fn) {
      return db.transaction((tx) => fn(makeTenantDb(tx as unknown as Db, scope)));
    },
    system() {
      return db;
    },
  };
}

/**
 * The database without a tenant scope, for code that acts for every tenant or before there is one:
 * authentication and sign-in, workers and sweepers, migrations, start-up checks. The reason is written in
 * the call (`systemDb(app, 'webhook outbox worker: every tenant's deliveries')`), so a reader sees why.
 */
export function systemDb(owner: DbOwner, reason: string): Db {
  if (!reason.trim()) throw new Error('systemDb needs the reason it reads without a tenant scope');
  return owner.db as Db;
}

export { ScopeViolation };
