import PgBoss from 'pg-boss';
import type { Database } from '../db';

export async function startBoss(database: Database, databaseUrl?: string): Promise<PgBoss> {
  const boss = databaseUrl
    ? new PgBoss({ connectionString: databaseUrl, max: 4 })
    : new PgBoss({ db: { executeSql: (text: string, values: any[]) => database.sql.executeSql(text, values) } });
  // Errors here are transient (a database restart); pg-boss retries on its own schedule.
  boss.on('error', () => {});
  await boss.start();
  return boss;
}
