import { Migration } from '@mikro-orm/migrations';

/**
 * runners/allRunners(sort: CiRunnerSort): one (sort expression, id) index per order, so a page of
 * `allRunners(sort: CONTACTED_DESC, first: 20)` reads 21 index entries from the cursor on, no sort.
 * The contacted order sorts a never-contacted runner as -infinity (runner-list.query.ts CONTACTED_SORT).
 */
export class Migration20261205120000RunnerSortIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index if not exists ci_runners_created_sort_idx on ci_runners (created_at, id);');
    this.addSql(
      "create index if not exists ci_runners_contacted_sort_idx on ci_runners ((coalesce(contacted_at, '-infinity'::timestamptz)), id);",
    );
  }
}
